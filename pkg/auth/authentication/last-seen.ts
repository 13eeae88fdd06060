import type { RequestHandler } from 'express';
import { lastSeenKind } from '../../../apis';
import type { Registry, RequestContext } from '../../registry';
import { IDENTITY_NAMESPACE, SYSTEM } from '../identity/identity-directory';

export interface LastSeenOptions {
  /** A user's activity is written at most this often by one process. Default one minute, as sessions' `seenAt`. */
  intervalMs?: number;
  now?: () => number;
  /** A write that failed (the database is away): reported, never thrown at the request that caused it. */
  onError?: (err: unknown) => void;
}

/** Bounded, so a flood of distinct users cannot grow the throttle without limit. */
const MAX_TRACKED = 10_000;

/**
 * Users' last activity (the anchor's `lastSeenAt`), for every way of signing in: basic credentials, sessions and the
 * login form. Cheap by design: the throttle is in process (user uid → last write), so an authenticated request
 * costs a map lookup, and at most once a minute per user a write that the request does not wait for. Service
 * accounts have their tokens' `lastUsedAt` instead (pkg/auth/identity/service-accounts.ts).
 *
 * @example
 *   const lastSeen = new LastSeenTracker(users.registry);
 *   app.use('/api', authenticate(strategies), lastSeen.middleware());
 *   (await lastSeen.of([user.uid])).get(user.uid); // '2026-11-22T11:58:30.500Z'
 */
export class LastSeenTracker {
  private readonly written = new Map<string, number>();
  private readonly intervalMs: number;
  private readonly now: () => number;

  constructor(
    private readonly registry: Registry,
    private readonly options: LastSeenOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  private ctx(): RequestContext {
    return { requester: SYSTEM, namespace: IDENTITY_NAMESPACE, fieldManager: 'svc-last-seen' };
  }

  /**
   * Notes that the user `uid` is active now. Answers the write when one is due, undefined when this process wrote
   * the user's activity less than an interval ago; the write never rejects (failures go to `onError`).
   */
  seen(uid: string): Promise<void> | undefined {
    const now = this.now();
    const last = this.written.get(uid);
    if (last !== undefined && now - last < this.intervalMs) return undefined;
    if (this.written.size >= MAX_TRACKED) this.forgetStale(now);
    // Taken before writing, so concurrent requests of one user make one write.
    this.written.set(uid, now);
    // A failed write is tried again an interval later, not by the next request: a database that is away is not
    // asked once per request.
    return this.write(uid, new Date(now).toISOString()).catch((err: unknown) => this.options.onError?.(err));
  }

  /** Every user's latest activity by uid; users never seen are absent. */
  async all(): Promise<Map<string, string>> {
    const list = await this.registry.list(this.ctx(), lastSeenKind, {});
    return new Map(list.items.map((o) => [o.metadata.name, String(o.spec.seenAt)]));
  }

  /** The latest activity of these users by uid (one read); users never seen are absent. */
  async of(uids: readonly string[]): Promise<Map<string, string>> {
    const page = await this.registry.page(this.ctx(), lastSeenKind, { names: uids });
    return new Map(page.items.map((o) => [o.metadata.name, String(o.spec.seenAt)]));
  }

  /** Records the activity of every authenticated user request (not service accounts, not anonymous visitors). */
  middleware(): RequestHandler {
    return (req, _res, next) => {
      const identity = req.user?.identity ?? '';
      if (identity.startsWith('user:')) void this.seen(identity.slice('user:'.length));
      next();
    };
  }

  /** Create, or move forward: another replica may have written a later time meanwhile. */
  private async write(uid: string, seenAt: string): Promise<void> {
    const later = (stored: unknown) => (typeof stored === 'string' && stored > seenAt ? stored : seenAt);
    await this.registry.upsert(this.ctx(), lastSeenKind, uid, (cur) => (cur ? { ...cur, spec: { ...cur.spec, seenAt: later(cur.spec.seenAt) } } : { metadata: { name: uid }, spec: { seenAt } }));
  }

  private forgetStale(now: number): void {
    for (const [uid, at] of this.written) if (now - at >= this.intervalMs) this.written.delete(uid);
    if (this.written.size >= MAX_TRACKED) this.written.clear();
  }
}
