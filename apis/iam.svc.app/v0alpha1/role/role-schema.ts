import { z } from 'zod';

/** One permission of a custom role: an action on a scope ('' = not about one object). */
export const rolePermissionSchema = z.object({
  action: z.string().trim().min(1, 'action is required'),
  scope: z.string().default(''),
});

/**
 * A custom role (enterprise edition): named permissions an org assigns to users, teams or service accounts. The
 * object name is the role's uid.
 */
export const roleSpecSchema = z.looseObject({
  name: z.string().trim().min(1, 'name is required'),
  displayName: z.string().default(''),
  description: z.string().default(''),
  group: z.string().default(''),
  hidden: z.boolean().default(false),
  /** Starts at 1 and grows by one with every update. */
  version: z.number().int().positive().default(1),
  permissions: z.array(rolePermissionSchema).default([]),
});

export type RoleSpec = z.infer<typeof roleSpecSchema>;
export type RolePermission = z.infer<typeof rolePermissionSchema>;
