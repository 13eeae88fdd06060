import { z } from 'zod';

/** The longest external group id kept (an LDAP DN, a SAML or OAuth group name). */
export const MAX_GROUP_ID_LENGTH = 1024;

/** An external group mapped to a team (team sync, spec §2.12): members of the group are synced into the team. */
export const teamGroupSpecSchema = z.looseObject({
  /** The team's numeric id (its `svc.app/deprecatedInternalID`). */
  teamId: z.number().int().positive(),
  /** The external group's identifier, as the identity provider names it, e.g. `cn=editors,ou=groups,dc=example,dc=org`. */
  groupId: z.string().min(1).max(MAX_GROUP_ID_LENGTH),
});

export type TeamGroupSpec = z.infer<typeof teamGroupSpecSchema>;
