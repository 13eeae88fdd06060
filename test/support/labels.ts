/**
 * Labels as a client set them: without those the server sets itself under its own `svc.app` prefixes (the numeric
 * id of `internalIds` kinds, `svc.app/deprecatedInternalID`, test/apis/internal-ids.test.ts; a correlation's
 * `correlation.svc.app/source`; a snapshot's lookup labels).
 *
 * @example clientLabels({ team: 'a', 'svc.app/deprecatedInternalID': '3' }) // { team: 'a' }
 */
export function clientLabels(labels: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(labels ?? {}).filter(([key]) => !/^([a-z0-9-]+\.)*svc\.app\//.test(key)));
}
