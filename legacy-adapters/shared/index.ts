export { bind, bodyObject } from './body';
export { defineArea, type LegacyArea, type LegacyRoute, type RouteHandler, routeName, servedRoutes } from './declare';
export type { AdapterDeps } from './deps';
export { byKind, legacyError, type LegacyErrors, type Wording } from './errors';
export { folderUrl } from './folder-url';
export { describeGuard, enforce, type Guard, guard, requireAnyAction, requireOrgAdmin, requireServerAdmin, requireUser } from './guards';
export { legacyRouter } from './mount';
export { idParam, positiveInt, positiveQueryInt, queryInt, queryString } from './params';
export type { LegacyBody, LegacyMethod, LegacyParam, LegacyResponse, LegacyRouteDoc, RouteDescription } from './route-doc';
