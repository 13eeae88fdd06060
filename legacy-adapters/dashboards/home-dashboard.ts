import type { JsonObject } from '../../pkg/meta';
import { type DashboardFullWithMeta, GENERAL_FOLDER, ZERO_TIME } from './dashboards-conversions';

/** The built-in home dashboard (the anchor's public/dashboards/home.json): a welcome and two dashboard lists. */
const HOME_MODEL: JsonObject = {
  annotations: {
    list: [
      {
        builtIn: 1,
        datasource: { type: 'datasource', uid: 'svc' },
        enable: true,
        hide: true,
        iconColor: 'rgba(0, 211, 255, 1)',
        name: 'Annotations & Alerts',
        type: 'dashboard',
      },
    ],
  },
  editable: true,
  graphTooltip: 0,
  links: [],
  panels: [
    { gridPos: { h: 3, w: 24, x: 0, y: 0 }, id: 3, options: {}, title: '', transparent: true, type: 'welcome' },
    {
      gridPos: { h: 15, w: 12, x: 0, y: 3 },
      id: 1,
      options: { showStarred: true, showRecentlyViewed: false, showSearch: false, showHeadings: false, maxItems: 30, tags: [] },
      title: 'Starred dashboards',
      type: 'dashlist',
    },
    {
      gridPos: { h: 15, w: 12, x: 12, y: 3 },
      id: 2,
      options: { showStarred: false, showRecentlyViewed: true, showSearch: false, showHeadings: false, maxItems: 30, tags: [] },
      title: 'Recently viewed dashboards',
      type: 'dashlist',
    },
  ],
  refresh: '',
  schemaVersion: 39,
  tags: [],
  templating: { list: [] },
  time: { from: 'now-6h', to: 'now' },
  timepicker: { hidden: true, refresh_intervals: [], time_options: [], type: 'timepicker' },
  timezone: 'browser',
  title: 'Home',
  version: 0,
};

/**
 * `GET /api/dashboards/home` when no home dashboard is chosen: the built-in one, which nobody saves or stars;
 * editors may edit it in the frontend (and save it as a new dashboard), as the anchor lets them.
 *
 * @example homeDashboard({ canEdit: false }).meta.isHome // true
 */
export function homeDashboard(opts: { canEdit: boolean }): DashboardFullWithMeta & { meta: { isHome: true } } {
  return {
    dashboard: structuredClone(HOME_MODEL),
    meta: {
      isHome: true,
      type: 'db',
      isStarred: false,
      canSave: false,
      canEdit: opts.canEdit,
      canAdmin: false,
      canStar: false,
      canDelete: false,
      slug: '',
      url: '/',
      expires: ZERO_TIME,
      created: ZERO_TIME,
      updated: ZERO_TIME,
      createdBy: '',
      updatedBy: '',
      version: 0,
      hasAcl: false,
      isFolder: false,
      folderId: GENERAL_FOLDER.id,
      folderUid: GENERAL_FOLDER.uid,
      folderTitle: GENERAL_FOLDER.title,
      folderUrl: '',
      provisioned: false,
      provisionedExternalId: '',
      publicDashboardEnabled: false,
    },
  };
}
