/**
 * Objects written from provisioning files (pkg/provisioning) carry these annotations. Only the provisioner sets
 * them: the registry drops them from every other writer's body and keeps the stored ones on its updates, so a
 * client can neither make an object provisioned nor free it from its files.
 */
export const ProvisioningAnnotations = {
  /** `classic-file-provisioning` on every provisioned object. */
  managedBy: 'svc.app/managedBy',
  /** The provider (dashboards) or `datasources` that wrote it. */
  managerId: 'svc.app/managerId',
  /** The file it comes from, relative to the provider's path: the legacy `provisionedExternalId`. */
  sourcePath: 'svc.app/sourcePath',
  /** A digest of what the file said when last applied: an unchanged file is not written again. */
  checksum: 'svc.app/sourceChecksum',
  /** `true` when the provider lets users save it (`allowUiUpdates`); the next change of its file overwrites them. */
  allowsEdits: 'svc.app/managerAllowsEdits',
} as const;

export const PROVISIONING_MANAGER = 'classic-file-provisioning';

/**
 * The identity the provisioner writes as (createdBy/updatedBy). The registry lets it change what kinds otherwise
 * refuse to change (`KindStrategy.refuseChange`: read-only data sources, provisioned dashboards) and set the
 * annotations above; no caller of the APIs is ever given it (identities of callers are `user:`, `service-account:`).
 */
export const PROVISIONER_IDENTITY = 'provisioner:files';

export const PROVISIONING_ANNOTATION_KEYS: readonly string[] = Object.values(ProvisioningAnnotations);

/** Whether an object was written by the provisioner (and is still its own). */
export function isProvisioned(annotations: Readonly<Record<string, string>> | undefined): boolean {
  return annotations?.[ProvisioningAnnotations.managedBy] === PROVISIONING_MANAGER;
}
