import type { Request, Response } from 'express';
import { ORG_ROLES } from '../../apis/iam.svc.app/v0alpha1/orgmember';
import { type OrgRole, roleIncludes } from '../../pkg/auth/authorization/permissions';
import { type ServiceAccountChange, type ServiceAccounts, serviceAccountNotFound, type StoredServiceAccount } from '../../pkg/auth/identity/service-accounts';
import { StatusError } from '../../pkg/errors';
import { type AdapterDeps, bodyObject, idParam, positiveQueryInt } from '../shared';
import { type SearchOrgServiceAccountsResult, toServiceAccountDTO, toServiceAccountProfileDTO, toTokenDTO } from './serviceaccounts-conversions';

const bad = (message: string) => new StatusError(400, 'BadRequest', message);
const badData = () => bad('Bad request data');

/** The anchor's defaults of the search: everything on one page of 1000. */
const DEFAULT_PER_PAGE = 1000;

const body = (req: Request) => bodyObject(req, 'Bad request data');

/** `name`: required (create) or optional (update), a non-blank string either way. */
function nameOf(b: Record<string, unknown>, required: boolean): string | undefined {
  if (b.name === undefined && !required) return undefined;
  if (typeof b.name !== 'string' || b.name.trim() === '') throw badData();
  return b.name.trim();
}

/** `role`: one of the org roles, and none above the caller's own (the anchor's two checks, in its order). */
function roleOf(req: Request, b: Record<string, unknown>): OrgRole | undefined {
  if (b.role === undefined || b.role === null) return undefined;
  if (typeof b.role !== 'string' || !(ORG_ROLES as readonly string[]).includes(b.role)) throw bad('invalid role specified');
  const role = b.role as OrgRole;
  // The anchor's RoleType.Includes: anyone may hand out None, which grants nothing.
  if (role !== 'None' && !roleIncludes(req.user!.orgRole ?? 'None', role)) throw new StatusError(403, 'Forbidden', "can not assign a role higher than user's role");
  return role;
}

function disabledOf(b: Record<string, unknown>): boolean | undefined {
  if (b.isDisabled === undefined || b.isDisabled === null) return undefined;
  if (typeof b.isDisabled !== 'boolean') throw badData();
  return b.isDisabled;
}

const queryBool = (v: unknown) => v === 'true' || v === '1';

/**
 * Service accounts of the request's organization and their tokens (spec §5.2, the anchor's `/api/serviceaccounts`),
 * as clients of the ServiceAccount and ServiceAccountToken kinds. Org Admins hold `serviceaccounts:*`; the numeric
 * ids are looked up in the caller's org only, so another org's service account is simply not found.
 */
const by = (req: Request) => ({ identity: req.user!.identity });

/** The service account `:id` of the request's org; 404 "service account not found" otherwise. */
async function target(accounts: ServiceAccounts, req: Request, invalid = 'Service Account ID is invalid'): Promise<StoredServiceAccount> {
  const sa = await accounts.byId(req.user!.orgId, idParam(req, 'id', invalid));
  if (!sa) throw serviceAccountNotFound();
  return sa;
}

export async function createServiceAccount(req: Request, res: Response, { accounts }: AdapterDeps): Promise<void> {
  const b = body(req);
  const name = nameOf(b, true)!;
  const isDisabled = disabledOf(b);
  const role = roleOf(req, b);
  const sa = await accounts.create(by(req), req.user!.orgId, { name, role, isDisabled });
  res.status(201).json(toServiceAccountDTO(sa, 0));
}

export async function searchOrgServiceAccountsWithPaging(req: Request, res: Response, { accounts }: AdapterDeps): Promise<void> {
  const perPage = positiveQueryInt(req.query.perpage, DEFAULT_PER_PAGE);
  const page = positiveQueryInt(req.query.page, 1);
  const query = typeof req.query.query === 'string' ? req.query.query : '';
  const orgId = req.user!.orgId;
  const { accounts: found, totalCount } = await accounts.search(orgId, {
    query,
    disabled: queryBool(req.query.disabled ?? req.query.Disabled),
    expiredTokens: queryBool(req.query.expiredTokens),
    offset: (page - 1) * perPage,
    limit: perPage,
  });
  const tokens = await accounts.tokensOfAccounts(orgId, found.map((sa) => sa.uid));
  const result: SearchOrgServiceAccountsResult = {
    totalCount,
    serviceAccounts: found.map((sa) => toServiceAccountDTO(sa, tokens.filter((t) => t.serviceAccountUid === sa.uid).length)),
    page,
    perPage,
  };
  res.json(result);
}

export async function retrieveServiceAccount(req: Request, res: Response, { accounts }: AdapterDeps): Promise<void> {
  const sa = await target(accounts, req);
  res.json(toServiceAccountDTO(sa, (await accounts.tokens(sa.orgId, sa.uid)).length));
}

export async function updateServiceAccount(req: Request, res: Response, { accounts }: AdapterDeps): Promise<void> {
  const b = body(req);
  const change: ServiceAccountChange = { name: nameOf(b, false), isDisabled: disabledOf(b), role: roleOf(req, b) };
  const updated = await accounts.update(by(req), await target(accounts, req), change);
  res.json({ message: 'Service account updated', id: updated.id, name: updated.name, serviceaccount: toServiceAccountProfileDTO(updated) });
}

export async function deleteServiceAccount(req: Request, res: Response, { accounts }: AdapterDeps): Promise<void> {
  await accounts.delete(by(req), await target(accounts, req, 'Service account ID is invalid'));
  res.json({ message: 'Service account deleted' });
}

export async function listTokens(req: Request, res: Response, { accounts }: AdapterDeps): Promise<void> {
  // As the anchor: the tokens of a service account the org does not have are none.
  const sa = await accounts.byId(req.user!.orgId, idParam(req, 'id', 'Service Account ID is invalid'));
  const now = Date.now();
  res.json(sa ? (await accounts.tokens(sa.orgId, sa.uid)).map((t) => toTokenDTO(t, now)) : []);
}

export async function createToken(req: Request, res: Response, { accounts }: AdapterDeps): Promise<void> {
  const sa = await target(accounts, req);
  const b = body(req);
  const name = nameOf(b, true)!;
  const ttl = b.secondsToLive ?? 0;
  if (typeof ttl !== 'number' || !Number.isSafeInteger(ttl)) throw badData();
  if (ttl < 0) throw bad('invalid SecondsToLive value');
  const { token, key } = await accounts.addToken(by(req), sa, { name, secondsToLive: ttl });
  res.json({ id: token.id, name: token.name, key });
}

export async function deleteToken(req: Request, res: Response, { accounts }: AdapterDeps): Promise<void> {
  const sa = await target(accounts, req);
  await accounts.deleteToken(by(req), sa, idParam(req, 'tokenId', 'Token ID is invalid'));
  res.json({ message: 'Service account token deleted' });
}
