/**
 * The anchor's slug: lower case, runs of anything but letters and digits become one '-', no '-' at the ends.
 * @example slugify('Prod: API latency!') // 'prod-api-latency'
 */
export function slugify(title: string): string {
  // Only non-ASCII titles have accents to strip (search renders thousands of slugs per page).
  const plain = /[^\x00-\x7f]/.test(title) ? title.normalize('NFKD').replace(/[\u0300-\u036f]/g, '') : title;
  return plain
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** `/d/<uid>/<slug>`, the dashboard's page in the frontend. */
export function dashboardUrl(uid: string, title: string): string {
  return `/d/${uid}/${slugify(title)}`;
}
