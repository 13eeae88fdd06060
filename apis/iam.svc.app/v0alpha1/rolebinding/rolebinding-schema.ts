import { z } from 'zod';

export const ROLE_SUBJECT_KINDS = ['user', 'team', 'service-account'] as const;

/** The assignment of a custom role to one user, team or service account of the namespace's organization. */
export const roleBindingSpecSchema = z.looseObject({
  roleUid: z.string().min(1),
  subject: z.object({
    kind: z.enum(ROLE_SUBJECT_KINDS),
    /** The subject's uid: what the authorizer knows the caller by (`user:<uid>`, a team's uid). */
    uid: z.string().min(1),
    /** Its numeric id, as the legacy API names it. */
    id: z.number().int().positive(),
  }),
});

export type RoleBindingSpec = z.infer<typeof roleBindingSpecSchema>;
export type RoleSubjectKind = (typeof ROLE_SUBJECT_KINDS)[number];
