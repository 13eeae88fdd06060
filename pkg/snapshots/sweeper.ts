import { EXPIRES_LABEL, snapshotKind as typedSnapshotKind } from '../../apis';
import { StatusError } from '../errors';
import type { Logger } from '../log';
import { anyKind } from '../meta';
import type { Registry, RequestContext } from '../registry';

const snapshotKind = anyKind(typedSnapshotKind);
/** Snapshots deleted per query; a pass goes on until none is left. */
const BATCH = 100;

/**
 * Deletes expired snapshots (the anchor's cleanup job, every 10 minutes). Safe with several replicas on one
 * database: each expired snapshot is deleted by a conditional delete (its `metadata.uid` as precondition) in the
 * registry's transaction, so of replicas sweeping at once exactly one deletes it and the others find it gone,
 * which is no error. Reads already answer 404 for an expired snapshot that is not yet swept.
 *
 * @example new SnapshotSweeper(registry, log).start(600)
 */
export class SnapshotSweeper {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly registry: Registry,
    private readonly log: Logger,
  ) {}

  /** One pass: the number of snapshots this process deleted. */
  async sweepOnce(now = Date.now()): Promise<number> {
    const below = Math.floor(now / 1000) + 1;
    let deleted = 0;
    const seen = new Set<string>();
    for (;;) {
      const expired = (await this.registry.findLabelBelow(snapshotKind, EXPIRES_LABEL, below, BATCH)).filter((s) => !seen.has(s.metadata.uid));
      if (expired.length === 0) return deleted;
      for (const snapshot of expired) {
        seen.add(snapshot.metadata.uid);
        const ctx: RequestContext = { requester: { identity: 'service:snapshot-sweeper' }, namespace: snapshot.metadata.namespace!, fieldManager: 'snapshot-sweeper' };
        try {
          await this.registry.delete(ctx, snapshotKind, snapshot.metadata.name, { preconditions: { uid: snapshot.metadata.uid } });
          deleted++;
        } catch (err) {
          // Another replica deleted it first (gone, or a new object of that name since).
          if (!(err instanceof StatusError && (err.code === 404 || err.code === 409))) throw err;
        }
      }
    }
  }

  start(intervalSeconds: number): void {
    this.timer = setInterval(() => {
      this.sweepOnce().then(
        (n) => n && this.log.info('deleted expired snapshots', { count: n }),
        (err: unknown) => this.log.warn('expired snapshot sweep failed', { error: String(err) }),
      );
    }, intervalSeconds * 1000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
