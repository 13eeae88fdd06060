import type { Request } from 'express';
import { StatusError } from '../../pkg/errors';
import type { DataSourceRef, ResolvedDataSource } from '../../pkg/plugins/instances';
import { type AdapterDeps, requestContext } from '../shared';

/** The proxy's words for its lookups where they differ from the other data source routes' (anchor-breadth §2.1). */
export const LookupMessages = {
  idInvalid: 'id is invalid',
  notFound: 'Unable to find datasource',
} as const;

/**
 * The data source a proxied call names, in the caller's organization, with its secrets decrypted and its plugin
 * (pkg/plugins/instances.ts): 400 for a malformed uid ("UID is invalid") or id, 404 when the organization has none
 * by that name (another organization's is not found either), 403 "Access denied to datasource" when the caller
 * may not `datasources:query` it.
 */
export async function proxiedDataSource(req: Request, deps: AdapterDeps, ref: { uid: string } | { id: string }): Promise<ResolvedDataSource> {
  let resolved: DataSourceRef;
  if ('id' in ref) {
    if (!/^[1-9][0-9]{0,14}$/.test(ref.id)) throw StatusError.badRequest(LookupMessages.idInvalid);
    resolved = { id: Number(ref.id) };
  } else resolved = ref;
  try {
    return await deps.dataSources.resolve(requestContext(req, deps.registry), resolved);
  } catch (err) {
    if (err instanceof StatusError && err.code === 404) throw new StatusError(404, 'NotFound', LookupMessages.notFound);
    throw err;
  }
}
