import type { Response } from 'supertest';
import { StatusError } from '../../pkg/errors';
import type { KindRegistration } from '../../pkg/meta';
import { applyPatch, MERGE_PATCH } from '../../pkg/patch';
import type { DeleteOptions, ListOptions, Registry, RequestContext } from '../../pkg/registry';
import { statusBody } from '../../pkg/server/render-error';
import type { TestApp } from '../support/app';

/** An answer as a client reads it: the HTTP status and the JSON body (a `Status` on errors). */
export type Answer = Pick<Response, 'status' | 'body'>;

/** The operations the kind conformance suite makes on one kind's objects in namespace `default`, as the admin. */
export interface KindClient {
  create(body: unknown, opts?: { fieldManager?: string; dryRun?: boolean }): Promise<Answer>;
  get(name: string): Promise<Answer>;
  list(opts?: Pick<ListOptions, 'labelSelector' | 'fieldSelector' | 'limit' | 'continue'>): Promise<Answer>;
  update(name: string, body: unknown): Promise<Answer>;
  mergePatch(name: string, patch: object): Promise<Answer>;
  delete(name: string, opts?: Pick<DeleteOptions, 'preconditions'>): Promise<Answer>;
}

/** The path of a kind's collection in namespace `default` under /apis. */
export const collectionPath = (kind: KindRegistration) => `/apis/${kind.group}/${kind.version}/namespaces/default/${kind.plural}`;

/** The kind through HTTP, as kubectl reaches it. */
export function httpKindClient(t: Pick<TestApp, 'as'>, kind: KindRegistration): KindClient {
  const base = collectionPath(kind);
  const query = (params: Record<string, string | number | undefined>) => {
    const q = new URLSearchParams(Object.entries(params).flatMap(([k, v]): [string, string][] => (v === undefined ? [] : [[k, String(v)]]))).toString();
    return q ? `?${q}` : '';
  };
  return {
    create: (body, opts = {}) => t.as.post(`${base}${query({ fieldManager: opts.fieldManager, dryRun: opts.dryRun ? 'All' : undefined })}`).send(body as object),
    get: (name) => t.as.get(`${base}/${name}`),
    list: (opts = {}) => t.as.get(`${base}${query(opts)}`),
    update: (name, body) => t.as.put(`${base}/${name}`).send(body as object),
    mergePatch: (name, patch) => t.as.patch(`${base}/${name}`).set('Content-Type', MERGE_PATCH).send(JSON.stringify(patch)),
    delete: (name, opts) => (opts ? t.as.delete(`${base}/${name}`).send(opts) : t.as.delete(`${base}/${name}`)),
  };
}

/**
 * The kind through the registry's own API, for kinds no route serves (the identity kinds): the same operations as
 * the admin (`user:admin`), with errors answered as the server renders them under /apis. Bodies are copied both
 * ways, as a request and an answer would be: the registry's hooks may change what they are given.
 */
export function registryKindClient(registry: Registry, kind: KindRegistration): KindClient {
  const ctx = (fieldManager = 'conformance'): RequestContext => ({ requester: { identity: 'user:admin', login: 'admin' }, namespace: 'default', fieldManager });
  const answer = async (status: number, call: () => Promise<unknown>): Promise<Answer> => {
    try {
      return { status, body: structuredClone(await call()) };
    } catch (err) {
      if (err instanceof StatusError) return { status: err.code, body: statusBody(err) };
      throw err;
    }
  };
  return {
    create: (body, opts = {}) => answer(201, () => registry.create(ctx(opts.fieldManager), kind, structuredClone(body), { dryRun: opts.dryRun })),
    get: (name) => answer(200, () => registry.get(ctx(), kind, name)),
    list: (opts = {}) => answer(200, () => registry.list(ctx(), kind, opts)),
    update: (name, body) => answer(200, () => registry.update(ctx(), kind, name, structuredClone(body))),
    mergePatch: (name, patch) => answer(200, () => registry.patch(ctx(), kind, name, (current) => applyPatch(MERGE_PATCH, current, patch))),
    delete: (name, opts = {}) => answer(200, () => registry.delete(ctx(), kind, name, opts)),
  };
}
