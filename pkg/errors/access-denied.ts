import { randomInt } from 'node:crypto';

/** The anchor's RBAC 403 body, answered under `/api` when an action is missing. */
export interface AccessDeniedBody {
  title: 'Access denied';
  message: string;
  accessErrorId: string;
}

/**
 * The anchor's words for what was needed (its evaluators' String()): one action as is, several as `any of a, b`.
 *
 * @example permissionsNeeded(['dashboards:create', 'dashboards:write']) // 'any of dashboards:create, dashboards:write'
 */
export function permissionsNeeded(actions: string | readonly string[]): string {
  if (typeof actions === 'string') return actions;
  return actions.length === 1 ? actions[0] : `any of ${actions.join(', ')}`;
}

/**
 * The body of a 403 for a missing RBAC permission (or for none of several, `any of a, b`), with a fresh `ACE` + 10 digits id to find it in the logs.
 *
 * @example
 *   accessDenied('dashboards:write');
 *   // { title: 'Access denied', message: "You'll need additional permissions to perform this action.
 *   //   Permissions needed: dashboards:write", accessErrorId: 'ACE0123456789' }
 */
export function accessDenied(action: string | readonly string[]): AccessDeniedBody {
  let digits = '';
  for (let i = 0; i < 10; i++) digits += String(randomInt(10));
  return {
    title: 'Access denied',
    message: `You'll need additional permissions to perform this action. Permissions needed: ${permissionsNeeded(action)}`,
    accessErrorId: `ACE${digits}`,
  };
}
