import { anyKind, type KindRegistration } from '../pkg/meta';
import { dashboardKind } from './dashboard.svc.app/v1beta1/dashboard';
import { folderKind } from './folder.svc.app/v1beta1/folder';
import { playlistKind } from './playlist.svc.app/v1/playlist';

export { dashboardKind, folderKind, playlistKind };

/** Every kind the server serves. Adding a kind is its folder plus one line here. */
export const allKinds: readonly KindRegistration[] = [anyKind(folderKind), anyKind(dashboardKind), anyKind(playlistKind)];
