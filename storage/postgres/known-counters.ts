import type { CounterState } from './write-sql';

/**
 * What this process last saw of types' counters (`resource_version` rows), so that a grouped batch of plain creates
 * can write without first locking and reading them (issue 16: one round trip per batch instead of two). The batch
 * assumes the counter is where this process left it, hands out versions from there, and sends one statement, a
 * transaction of its own: the lock of the counters and its writes (each counter updated only if it still holds the
 * version assumed; write-sql.ts insertObjects). When
 * another process wrote the type in between, nothing is written and the batch runs again with the counters locked
 * and read first, as before; the type is then not assumed for a while, so replicas that take turns writing one type
 * do not each pay a failed attempt per batch.
 *
 * @example
 *   const known = new KnownCounters();
 *   known.committed('dashboard.svc.app/dashboards', { version: 17, internalId: 0 });
 *   known.assumable('dashboard.svc.app/dashboards'); // { version: 17, internalId: 0 }
 *   known.observed('dashboard.svc.app/dashboards', 20); // another process wrote it: not assumed for CONTENDED_MS
 */
export class KnownCounters {
  private readonly counters = new Map<string, CounterState>();
  /** Types another process wrote lately, until when (Date.now()) they are not assumed. */
  private readonly contended = new Map<string, number>();

  constructor(private readonly contendedMs = CONTENDED_MS) {}

  /** The counter a batch may assume for the type: undefined when unknown or written by another process lately. */
  assumable(type: string): CounterState | undefined {
    const until = this.contended.get(type);
    if (until !== undefined) {
      if (Date.now() < until) return undefined;
      this.contended.delete(type);
    }
    return this.counters.get(type);
  }

  /** A lock read the counter: when it is not where this process left it, another process writes the type too. */
  observed(type: string, version: number): void {
    const known = this.counters.get(type);
    if (known && known.version !== version) {
      this.counters.delete(type);
      this.contended.set(type, Date.now() + this.contendedMs);
    }
  }

  /** A transaction of this process committed with the type's counter at `counter`. */
  committed(type: string, counter: CounterState): void {
    const known = this.counters.get(type);
    // Transactions of different groups may lock one type (a companion's) and end in any order: never go back.
    if (!known || counter.version >= known.version) this.counters.set(type, { version: counter.version, internalId: counter.internalId });
  }
}

/** How long a type another process wrote is not assumed (ms). */
export const CONTENDED_MS = 1000;
