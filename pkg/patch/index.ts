import jsonMergePatch from 'json-merge-patch';
import { StatusError } from '../errors';

export const MERGE_PATCH = 'application/merge-patch+json';
export const JSON_PATCH = 'application/json-patch+json';
export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';
export const APPLY_PATCH = 'application/apply-patch+yaml';

/** The patch types this server applies (the 415 message lists them, as kube-apiserver's does). */
export const SUPPORTED_PATCH_TYPES = [MERGE_PATCH];

/**
 * Applies a patch of the given media type to a copy of `current`.
 * Strategic merge patch needs Go struct tags no custom resource has: kube-apiserver refuses it for CRDs with 415,
 * and so does this server; kubectl then falls back to a merge patch when told `--type merge`.
 */
export function applyPatch(contentType: string, current: unknown, patch: unknown): unknown {
  switch (contentType) {
    case MERGE_PATCH:
      if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
        throw StatusError.badRequest('a merge patch must be a JSON object');
      }
      return jsonMergePatch.apply(structuredClone(current), patch);
    default:
      throw StatusError.unsupportedMediaType(
        `the body of the request was in an unknown format - accepted media types include: ${SUPPORTED_PATCH_TYPES.join(', ')}`,
      );
  }
}
