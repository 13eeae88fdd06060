import { StatusError } from '../../errors';
import { type IdentityDirectory, SYSTEM } from './identity-directory';

export interface BootstrapAdmin {
  user: string;
  password: string;
  email: string;
}

const MAIN_ORG = 'Main Org.';

/**
 * Makes sure organization 1 ("Main Org.") and the configured administrator exist, the administrator being a server
 * admin and Admin of org 1. Idempotent and safe when replicas start together: whoever creates second gets
 * AlreadyExists (org 1) or finds the name or login taken (both unique), which is fine. An existing administrator is
 * left as it is (its password is not reset), as the anchor creates the admin only once. On a fresh database the
 * administrator is the first user, so its id is 1, as the anchor's.
 */
export async function bootstrapIdentity(users: IdentityDirectory, admin: BootstrapAdmin): Promise<void> {
  await users.init();
  if (!(await users.orgById(1))) await users.createOrg(SYSTEM, MAIN_ORG, 1).catch(alreadyExists);
  let user = await users.userByLoginOrEmail(admin.user);
  if (!user) {
    // Its uid is its login where that is a valid uid: what this server wrote to createdBy (`user:admin`) before
    // users were stored keeps naming the same user.
    const uid = /^[A-Za-z0-9_-]{1,40}$/.test(admin.user) ? admin.user : undefined;
    await users.createUser(SYSTEM, { uid, login: admin.user, email: admin.email, password: admin.password, isSvcAdmin: true, orgId: 1 }).catch(alreadyExists);
    user = await users.userByLoginOrEmail(admin.user);
    if (!user) throw new Error(`could not create the administrator ${JSON.stringify(admin.user)}`);
  }
  if (!(await users.roleOf(1, user.id))) await users.setRole(SYSTEM, 1, user.id, 'Admin');
}

function alreadyExists(err: unknown): void {
  if (err instanceof StatusError && (err.reason === 'AlreadyExists' || err.code === 412 || err.code === 409)) return;
  throw err;
}
