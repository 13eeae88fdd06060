import type { Request, Response } from 'express';
import { StatusError } from '../../pkg/errors';
import { type Provisioner, ProvisioningError } from '../../pkg/provisioning';
import type { AdapterDeps } from '../shared';

/** The anchor's answers (pkg/api/admin_provisioning.go, anchor-breadth §8.4). */
export const ReloadMessages = {
  dashboards: 'Dashboards config reloaded',
  datasources: 'Datasources config reloaded',
  plugins: 'Plugins config reloaded',
  alerting: 'Alerting config reloaded',
  notifications: 'Notifications config reloaded',
  accessControl: 'Access control config reloaded',
} as const;

/**
 * Applies the files again and answers once the objects are stored. A file that cannot be applied is the caller's
 * to fix (400 naming the file and the field, nothing of it stored); anything else is the server's (500, logged).
 */
function reload(run: (p: Provisioner) => Promise<void>, message: string, failure: string) {
  return async (_req: Request, res: Response, deps: AdapterDeps): Promise<void> => {
    try {
      await run(deps.provisioning);
    } catch (err) {
      if (err instanceof ProvisioningError) throw StatusError.badRequest(err.message);
      if (err instanceof StatusError) throw err;
      deps.log.error(failure, { error: err instanceof Error ? err.message : String(err) });
      throw StatusError.internal(failure);
    }
    res.json({ message });
  };
}

export const reloadDashboards = reload((p) => p.reloadDashboards(), ReloadMessages.dashboards, 'Failed to reload dashboards config');
export const reloadDataSources = reload((p) => p.reloadDataSources(), ReloadMessages.datasources, 'Failed to reload datasources config');

/** Plugins, alerting, legacy alert notifiers and access control have no provisioning files here: nothing to apply, the anchor's answer. */
export function nothingToReload(message: string, status = 200) {
  return (_req: Request, res: Response): void => {
    res.status(status).json({ message });
  };
}
