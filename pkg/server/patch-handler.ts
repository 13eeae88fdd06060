import type { Request } from 'express';
import type { KindRegistration } from '../meta';
import { applyPatch } from '../patch';
import type { Registry, RequestContext } from '../registry';

export interface PatchRequest {
  registry: Registry;
  kind: KindRegistration;
  ctx: RequestContext;
  name: string;
  /** The request's media type, without parameters: application/merge-patch+json... */
  contentType: string;
  body: unknown;
  dryRun: boolean;
  query: Request['query'];
}

/** PATCH on an object: the media type says which kind of patch (spec of kubectl's patch types). */
export async function handlePatch(p: PatchRequest): Promise<{ status: number; body: unknown }> {
  const patched = await p.registry.patch(p.ctx, p.kind, p.name, (current) => applyPatch(p.contentType, current, p.body), { dryRun: p.dryRun });
  return { status: 200, body: patched };
}
