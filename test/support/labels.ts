/**
 * Labels as a client set them: without the numeric id the registry adds to `internalIds` kinds
 * (`svc.app/deprecatedInternalID`, test/apis/internal-ids.test.ts).
 *
 * @example clientLabels({ team: 'a', 'svc.app/deprecatedInternalID': '3' }) // { team: 'a' }
 */
export function clientLabels(labels: Record<string, string> | undefined): Record<string, string> {
  const { 'svc.app/deprecatedInternalID': _id, ...rest } = labels ?? {};
  return rest;
}
