/**
 * A provisioning file that cannot be applied: names the file and the field (`datasources[1].name`), so that an
 * operator finds the line to fix. At start the process exits with code 2 on it (cmd/); a reload answers 400.
 *
 * @example new ProvisioningError('/etc/p/datasources/a.yaml', 'datasources[0].name', 'required')
 *   // message: "/etc/p/datasources/a.yaml: datasources[0].name: required"
 */
export class ProvisioningError extends Error {
  constructor(
    readonly file: string,
    readonly field: string,
    readonly reason: string,
  ) {
    super(field ? `${file}: ${field}: ${reason}` : `${file}: ${reason}`);
    this.name = 'ProvisioningError';
  }
}

/** `datasources[0].jsonData.x` from a path of keys and indexes. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, step) => (typeof step === 'number' ? `${out}[${step}]` : out ? `${out}.${String(step)}` : String(step)), '');
}
