import { z } from 'zod';
import type { Config } from '../../pkg/config';
import { defineArea, guard, type LegacyRoute, type RouteHandler } from '../shared';
import { nothingToReload, ReloadMessages, reloadDashboards, reloadDataSources } from './provisioning-routes';

const message = z.object({ message: z.string() });
const enterprise = (config: Config) => config.server.edition === 'enterprise';

/** One reload: POST, server admins only (the anchor's `provisioning:reload` on `provisioners:<type>`). */
function reload(type: string, handler: RouteHandler, operationId: string, summary: string, extra: Partial<LegacyRoute> = {}): LegacyRoute {
  return {
    method: 'post', path: `/api/admin/provisioning/${type}/reload`, guard: guard.serverAdmin, handler,
    operationId, summary, tags: ['admin_provisioning'],
    responses: { 200: { description: 'Reloaded; the objects are stored.', schema: message }, 400: { description: 'A provisioning file cannot be applied: the message names the file and the field; nothing of it is stored.' }, 401: {}, 403: {}, 500: {} },
    ...extra,
  };
}

/** The admin provisioning reload routes (spec §4.11; README "Provisioning"). */
export const provisioningArea = defineArea({
  name: 'provisioning',
  routes: [
    reload('dashboards', reloadDashboards, 'adminProvisioningReloadDashboards', 'Reads the dashboard providers and their files again and stores them; polling restarts with the new providers.'),
    reload('datasources', reloadDataSources, 'adminProvisioningReloadDatasources', 'Reads the data source files again and stores them (deleteDatasources, prune included).'),
    reload('plugins', nothingToReload(ReloadMessages.plugins), 'adminProvisioningReloadPlugins', 'Plugin provisioning: the plugins are built in, there are no files to apply.'),
    reload('alerting', nothingToReload(ReloadMessages.alerting), 'adminProvisioningReloadAlerting', 'Alerting provisioning: this server has no alerting, there are no files to apply.'),
    reload('notifications', nothingToReload(ReloadMessages.notifications), 'adminProvisioningReloadNotifications', 'Legacy alert notifier provisioning: this server has no alerting, there are no notifier files to apply.'),
    reload('access-control', nothingToReload(ReloadMessages.accessControl, 202), 'adminProvisioningReloadAccessControl', 'Access control provisioning: no role files to apply. Enterprise edition only: 404 in the others.', {
      servedIn: enterprise,
      tags: ['access_control_provisioning', 'enterprise'],
      responses: { 202: { description: 'Accepted.', schema: message }, 401: {}, 403: {} },
    }),
  ],
});
