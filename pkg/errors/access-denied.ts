import { randomInt } from 'node:crypto';

/** The anchor's RBAC 403 body, answered under `/api` when an action is missing. */
export interface AccessDeniedBody {
  title: 'Access denied';
  message: string;
  accessErrorId: string;
}

/**
 * The body of a 403 for a missing RBAC permission, with a fresh `ACE` + 10 digits id to find it in the logs.
 *
 * @example
 *   accessDenied('dashboards:write');
 *   // { title: 'Access denied', message: "You'll need additional permissions to perform this action.
 *   //   Permissions needed: dashboards:write", accessErrorId: 'ACE0123456789' }
 */
export function accessDenied(action: string): AccessDeniedBody {
  let digits = '';
  for (let i = 0; i < 10; i++) digits += String(randomInt(10));
  return {
    title: 'Access denied',
    message: `You'll need additional permissions to perform this action. Permissions needed: ${action}`,
    accessErrorId: `ACE${digits}`,
  };
}
