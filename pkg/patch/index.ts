import jsonMergePatch from 'json-merge-patch';
import { StatusError } from '../errors';
import { applyJsonPatch, decodeJsonPatch } from './json-patch';

export { parseApplyConfig, type ApplyConfig } from './apply-config';
export { duplicateFields, type DuplicateField } from './duplicate-fields';
export {
  decodeBody,
  duplicateProblems,
  fieldValidationCause,
  type FieldValidation,
  type OptionsKind,
  parseFieldValidation,
  strictOutcome,
  warningHeader,
} from './field-validation';
export { applyJsonPatch, decodeJsonPatch, MAX_JSON_PATCH_OPERATIONS } from './json-patch';
export { jsonChanges, type JsonChange, jsonDelta, jsonEqual } from './json-diff';
export { unknownFields, type UnknownFields } from './unknown-fields';

export const MERGE_PATCH = 'application/merge-patch+json';
export const JSON_PATCH = 'application/json-patch+json';
export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';
export const APPLY_PATCH = 'application/apply-patch+yaml';

/** The patch types this server applies, in the order kube-apiserver's 415 message lists them for CRDs. */
export const SUPPORTED_PATCH_TYPES = [JSON_PATCH, MERGE_PATCH, APPLY_PATCH];

export function unsupportedPatchType(): StatusError {
  return StatusError.unsupportedMediaType(
    `the body of the request was in an unknown format - accepted media types include: ${SUPPORTED_PATCH_TYPES.join(', ')}`,
  );
}

/**
 * Applies a merge or JSON patch to a copy of `current` (apply patches need field ownership: the registry's `apply`).
 * Strategic merge patch needs Go struct tags no custom resource has: kube-apiserver refuses it for CRDs with 415,
 * and so does this server; kubectl then falls back to a merge patch when told `--type merge`.
 *
 * @example applyPatch(JSON_PATCH, { spec: { title: 'a' } }, [{ op: 'test', path: '/spec/title', value: 'a' }])
 */
export function applyPatch(contentType: string, current: unknown, patch: unknown): unknown {
  switch (contentType) {
    case MERGE_PATCH:
      if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
        throw StatusError.badRequest('a merge patch must be a JSON object');
      }
      return jsonMergePatch.apply(structuredClone(current), patch);
    case JSON_PATCH:
      return applyJsonPatch(current, decodeJsonPatch(patch).ops);
    default:
      throw unsupportedPatchType();
  }
}
