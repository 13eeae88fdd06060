import type { Logger } from '../log';
import type { ReportStore, StoredReport } from './report-store';

/** Sends one report (rendered as its organization, to its recipients); throws when it could not. */
export type ReportDelivery = (orgId: number, report: StoredReport) => Promise<void>;

/**
 * Sends scheduled reports when due, on every replica at once and each send by one of them: every pass finds the
 * reports of every organization whose next run passed (a label, see `NEXT_RUN_LABEL`) and claims each in a locked
 * read-modify-write that moves its next run on (`ReportStore.claim`); only the replica whose claim succeeded renders
 * and sends it. A send that fails is logged and not retried: the report is due again at its next run.
 *
 * @example new ReportScheduler(reports, deliver, orgOf, log).start(30)
 */
export class ReportScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly reports: ReportStore,
    private readonly deliver: ReportDelivery,
    /** The organization of a namespace. */
    private readonly orgOf: (namespace: string) => number | undefined,
    private readonly log: Logger,
  ) {}

  /** One pass at `now`: how many reports this process sent. */
  async runOnce(now = Date.now()): Promise<number> {
    let sent = 0;
    for (const report of await this.reports.due(now)) {
      const orgId = this.orgOf(report.metadata.namespace ?? '');
      if (orgId === undefined) continue;
      const claimed = await this.reports.claim(report, now);
      if (!claimed) continue;
      try {
        await this.deliver(orgId, claimed);
        sent++;
        this.log.info('sent a scheduled report', { report: claimed.metadata.name, orgId });
      } catch (err) {
        this.log.warn('a scheduled report was not sent', { report: claimed.metadata.name, orgId, error: err instanceof Error ? err.message : String(err) });
      }
    }
    return sent;
  }

  /** Runs a pass every `intervalSeconds` (one at a time). */
  start(intervalSeconds: number): void {
    this.timer = setInterval(() => {
      this.running ??= this.runOnce()
        .catch((err: unknown) => {
          this.log.warn('scheduled reports pass failed', { error: err instanceof Error ? err.message : String(err) });
          return 0;
        })
        .finally(() => (this.running = undefined));
    }, intervalSeconds * 1000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
