import type { Request, Response } from 'express';
import { internalKinds, orgKind } from '../../apis';
import { IDENTITY_NAMESPACE, SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { anyKind } from '../../pkg/meta';
import { countServer, usageReport } from '../../pkg/stats';
import type { AdapterDeps } from '../shared';

/** The registries the counts read: served kinds, identity kinds, internal kinds (data keys). */
const registries = (deps: AdapterDeps) => ({ objects: deps.registry, identity: deps.users.registry, internal: deps.registry.companion(internalKinds) });

/** GET /api/admin/stats: the anchor's AdminStats, counted from the stored objects at each request. */
export async function getStats(_req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  res.json((await countServer(registries(deps))).stats);
}

/**
 * GET /api/admin/usage-report-preview: the report the anchor would send, from the same counts. The installation's id
 * is organization 1's uid (made once, at the first start, and the same for every replica), its creation the database's;
 * `hasValidLicense` (and the `valid_license` metric) say whether the enterprise edition has a valid license installed.
 */
export async function getUsageReportPreview(_req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const counts = await countServer(registries(deps));
  const org = await deps.users.registry.get({ requester: SYSTEM, namespace: IDENTITY_NAMESPACE, fieldManager: 'svc-stats' }, anyKind(orgKind), '1');
  const created = Date.parse(org.metadata.creationTimestamp ?? '');
  // Only the enterprise edition has a license (an open-source server's is never valid, as the anchor's).
  const hasValidLicense = deps.config.server.edition === 'enterprise' && (await deps.licensing.hasValidLicense());
  res.json(usageReport(counts, {
    hasValidLicense,
    version: deps.version, edition: deps.config.server.edition, usageStatsId: org.metadata.uid,
    ...(Number.isNaN(created) ? {} : { databaseCreated: created }), uptimeSeconds: process.uptime(),
  }));
}
