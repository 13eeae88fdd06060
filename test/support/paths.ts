/** Collection paths in organization 1's namespace, and the timestamp shape the server writes, for HTTP suites. */
export const FOLDERS = '/apis/folder.svc.app/v1beta1/namespaces/default/folders';
export const DASHBOARDS = '/apis/dashboard.svc.app/v1beta1/namespaces/default/dashboards';
export const LIBRARY_PANELS = '/apis/dashboard.svc.app/v1beta1/namespaces/default/librarypanels';
export const PLAYLISTS = '/apis/playlist.svc.app/v1/namespaces/default/playlists';
export const DATASOURCES = '/apis/datasource.svc.app/v1beta1/namespaces/default/datasources';
export const SNAPSHOTS = '/apis/dashboard.svc.app/v1beta1/namespaces/default/snapshots';
/** RFC 3339 with second precision, as Kubernetes writes timestamps. */
export const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
