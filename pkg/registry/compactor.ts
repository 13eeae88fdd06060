import type { KindRegistration } from '../meta';
import type { Logger } from '../log';
import type { Storage } from '../../storage';
import { typeOf } from './folder-tree';
import { keptVersions } from './store';

/**
 * Forgets history older than the window, for every kind, on an interval: a continue token or a watch
 * resourceVersion from before the window then answers 410, as kube-apiserver does after etcd compaction.
 * Kinds that show their history (dashboard versions) keep every version that still exists, or the newest
 * `versionsToKeep` of each object (the versions older than those are already hidden by the registry).
 */
export class Compactor {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly kinds: readonly KindRegistration[],
    private readonly windowSeconds: number,
    private readonly log: Logger,
    /** As the registry's `RegistryOptions.versionsToKeep`. */
    private readonly versionsToKeep: Readonly<Record<string, number>> = {},
  ) {}

  /** One pass; resourceVersions are microseconds, so the cut is "now minus the window", never past the newest write. */
  async compactOnce(now = Date.now()): Promise<number> {
    let deleted = 0;
    for (const kind of this.kinds) {
      const { current } = await this.storage.versions(typeOf(kind));
      const before = Math.min((now - this.windowSeconds * 1000) * 1000, current);
      const kept = keptVersions(kind, this.versionsToKeep);
      const keepSuperseded = kept === 'all' ? true : kept === 0 ? false : { generations: kept };
      deleted += (await this.storage.compact(typeOf(kind), before, { keepSuperseded })).deleted;
    }
    return deleted;
  }

  start(intervalSeconds: number): void {
    this.timer = setInterval(() => {
      this.compactOnce().then(
        (n) => n && this.log.debug('compacted history', { rows: n }),
        (err: unknown) => this.log.warn('history compaction failed', { error: String(err) }),
      );
    }, intervalSeconds * 1000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
