import { z } from 'zod';

/**
 * One failed password check, counted by the login throttle. Which login or client address it counts against is
 * its `svc.app/throttle-key` label (a digest); `svc.app/failed-at` (epoch seconds) lets old ones be swept.
 */
export const loginAttemptSpecSchema = z.looseObject({
  /** When the check failed, epoch milliseconds. */
  failedAt: z.number().int().nonnegative(),
});

export type LoginAttemptSpec = z.infer<typeof loginAttemptSpecSchema>;
