import type { Request } from 'express';
import type { StatusError } from '../errors';
import type { Logger } from '../log';

/** What open watches ask about their callers' credentials (pkg/auth/authentication/caller-check.ts answers). */
export interface CredentialCheck {
  /** Requests with the same key get the same answer; undefined: never re-checked. */
  keyOf(req: Request): string | undefined;
  /** Notes what the request started with, before anything changes. */
  begin(req: Request): Promise<unknown>;
  /** Changes whenever identity data may have changed. */
  version(): Promise<string>;
  /** Undefined while the request's caller is unchanged; else the Status its watches end with. */
  recheck(req: Request): Promise<StatusError | undefined>;
}

export interface WatchCredentialsOptions {
  log: Logger;
  /** How often identity data is looked at while watches are open; a lost credential ends them within about this. */
  intervalMs?: number;
  /** Every credential is checked again at least this often, changed data or not (an expired token, session). */
  fullRecheckMs?: number;
}

/** The end of a held watch: `lost` settles with the Status to end it with, once its credential lost its access. */
export interface HeldCredential {
  lost: Promise<StatusError>;
  release(): void;
}

interface Holder {
  req: Request;
  end(err: StatusError): void;
}

/**
 * Keeps open watches honest about their callers: while any is open, identity data's versions are read every
 * interval (a few cheap queries per process, however many watches), and when they moved (or a while passed) each
 * distinct credential is checked once for all of its watches; the watches of one that lost its access end with
 * the Status the check gives (401, 403, or 410 Expired when its rights changed, which makes clients list again).
 * kube-apiserver leaves open watches alone; here a revoked token stops streaming within about a second.
 *
 * @example
 *   const held = credentials.hold(req);
 *   held?.lost.then((err) => endTheStream(err));
 *   // … when the stream ends: held?.release();
 */
export class WatchCredentials {
  private readonly groups = new Map<string, Set<Holder>>();
  private readonly intervalMs: number;
  private readonly fullRecheckMs: number;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private seen: string | undefined;
  private fullAt = 0;
  private failing = false;

  constructor(
    private readonly check: CredentialCheck,
    private readonly opts: WatchCredentialsOptions,
  ) {
    this.intervalMs = opts.intervalMs ?? 500;
    this.fullRecheckMs = opts.fullRecheckMs ?? 5000;
  }

  /** Follows the credential of a watch's request until released; undefined for a request that is never re-checked. */
  hold(req: Request): HeldCredential | undefined {
    const key = this.check.keyOf(req);
    if (key === undefined) return undefined;
    this.check.begin(req).catch(() => undefined);
    let end!: (err: StatusError) => void;
    const lost = new Promise<StatusError>((resolve) => (end = resolve));
    const holder: Holder = { req, end };
    let group = this.groups.get(key);
    if (!group) this.groups.set(key, (group = new Set()));
    group.add(holder);
    this.schedule();
    return {
      lost,
      release: () => {
        const g = this.groups.get(key);
        g?.delete(holder);
        if (g?.size === 0) this.groups.delete(key);
      },
    };
  }

  private schedule(): void {
    if (this.timer || this.running || !this.groups.size) return;
    this.timer = setTimeout(() => void this.tick(), this.intervalMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    this.running = true;
    try {
      const version = await this.check.version();
      const now = Date.now();
      if (version !== this.seen || now >= this.fullAt) {
        this.seen = version;
        this.fullAt = now + this.fullRecheckMs;
        await Promise.all([...this.groups].map(([key, holders]) => this.recheck(key, holders)));
      }
      if (this.failing) this.opts.log.info('watch: checking credentials again');
      this.failing = false;
    } catch (err) {
      // The database is away: watches are left open (they end on their own if it stays away), checked when it is back.
      if (!this.failing) this.opts.log.warn('watch: checking credentials failed; retrying', { error: String(err) });
      this.failing = true;
      this.seen = undefined;
    } finally {
      this.running = false;
    }
    this.schedule();
  }

  private async recheck(key: string, holders: Set<Holder>): Promise<void> {
    const [first] = holders;
    if (!first) return;
    const err = await this.check.recheck(first.req);
    if (!err) return;
    if (this.groups.get(key) === holders) this.groups.delete(key);
    for (const h of holders) h.end(err);
  }
}
