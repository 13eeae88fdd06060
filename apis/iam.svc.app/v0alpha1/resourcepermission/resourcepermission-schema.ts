import { z } from 'zod';

/** Who a permission is for, as the anchor's ResourcePermission names them; a BasicRole also covers the roles above. */
export const GRANTEE_KINDS = ['BasicRole', 'User', 'ServiceAccount', 'Team'] as const;
export const PERMISSION_VERBS = ['view', 'query', 'edit', 'admin'] as const;

/**
 * The managed permissions of one folder or dashboard (the anchor's iam ResourcePermission): the object it guards
 * and its list of grants, each a grantee (a basic role by name, a user, service account or team by uid) and a verb.
 */
export const resourcePermissionSpecSchema = z.looseObject({
  resource: z.looseObject({
    apiGroup: z.string().min(1),
    // A served kind declaring managed permissions (`access.managed`): folders, dashboards today.
    resource: z.string().regex(/^[a-z][a-z0-9.-]*$/),
    name: z.string().min(1).max(40),
  }),
  permissions: z.array(
    z.looseObject({
      kind: z.enum(GRANTEE_KINDS),
      name: z.string().min(1),
      verb: z.enum(PERMISSION_VERBS),
    }),
  ),
});

export type ResourcePermissionSpec = z.infer<typeof resourcePermissionSpecSchema>;
