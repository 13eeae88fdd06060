import type { Request, Response } from 'express';
import { StatusError } from '../../pkg/errors';
import { type AdapterDeps, idParam } from '../shared';

/**
 * POST /api/admin/users/:id/disable|enable (the anchor's admin_users.go): sets the user's isDisabled. A disabled user
 * is refused by every sign-in (password, login form) and its sessions stop working at their next request, as the
 * authentication reads the user at each one; disabling also ends its sessions, as the anchor revokes its tokens.
 */
function setDisabled(isDisabled: boolean, message: string) {
  return async (req: Request, res: Response, deps: AdapterDeps): Promise<void> => {
    const id = idParam(req, 'id');
    if (!(await deps.users.userById(id))) throw new StatusError(404, 'NotFound', 'user not found');
    const by = { identity: req.user!.identity };
    await deps.users.updateUser(by, id, (spec) => ({ ...spec, isDisabled }));
    if (isDisabled) await deps.sessions.revokeAll(by, id);
    res.json({ message });
  };
}

export const disableUser = setDisabled(true, 'User disabled');
export const enableUser = setDisabled(false, 'User enabled');
