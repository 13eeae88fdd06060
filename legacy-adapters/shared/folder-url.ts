import { slugify } from '../../apis/dashboard.svc.app/v1beta1/dashboard/dashboard-url';

/**
 * `/dashboards/f/<uid>/<slug>`, a folder's page in the frontend ('' for the root, uid '').
 * @example folderUrl('nErXDvCkzz', 'Department ABC'); // '/dashboards/f/nErXDvCkzz/department-abc'
 */
export function folderUrl(uid: string, title: string): string {
  return uid ? `/dashboards/f/${uid}/${slugify(title)}` : '';
}
