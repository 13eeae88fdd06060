import { REPORT_SETTINGS_NAME, REPORT_USER_LABEL, reportKind, type ReportSettingsSpec, reportSettingsKind, type ReportSpec } from '../../apis';
import { Labels, type Resource } from '../meta';
import { StatusError } from '../errors';
import type { Registry, RequestContext, Requester } from '../registry';
import { nextRun } from './report-schedule';

export type StoredReport = Resource<ReportSpec>;
export type StoredReportSettings = Resource<ReportSettingsSpec>;

/** Who writes: the caller's identity (annotations) and its numeric user id (the anchor's `userId`). */
export interface ReportWriter extends Requester {
  userId: number;
}

/**
 * The label of a report's next due time, epoch seconds (absent: not due again): the scheduler finds due reports of
 * every organization by it, and moves it on when it claims a send.
 */
export const NEXT_RUN_LABEL = 'reporting.svc.app/next-run';
/** The annotation of when the scheduler last sent a report. */
export const LAST_SENT_ANNOTATION = 'reporting.svc.app/last-sent';

/** The labels of a report with its next run from `from` on (none when it is not due again). */
function withNextRun(labels: Record<string, string> | undefined, spec: ReportSpec, from: number, savedAt: number): Record<string, string> {
  const { [NEXT_RUN_LABEL]: _old, ...rest } = labels ?? {};
  const next = nextRun(spec.schedule, spec.state, from, savedAt);
  return next === undefined ? rest : { ...rest, [NEXT_RUN_LABEL]: String(Math.ceil(next / 1000)) };
}

/** Thrown inside a claim's read-modify-write when another replica claimed the send first. */
class ClaimedElsewhere extends Error {}

/** A report's numeric id: its name (the kind is named by its id). */
export const reportIdOf = (report: StoredReport): number => Number(report.metadata.labels?.[Labels.deprecatedInternalID] ?? report.metadata.name);

/**
 * The reports and report settings of every organization, as objects of a registry serving the Report and
 * ReportSettings kinds (see `internalKinds`), each in its organization's namespace: another organization's report
 * is never found. No access is checked here: the reporting routes check the caller's actions on `reports:id:<id>`.
 *
 * @example
 *   const reports = new ReportStore(registry.companion(internalKinds));
 *   const created = await reports.create(1, { identity: 'user:ab', userId: 1 }, spec);
 *   (await reports.get(1, reportIdOf(created)))?.spec.name;
 */
export class ReportStore {
  constructor(private readonly registry: Registry) {}

  private ctx(orgId: number, requester: Requester = { identity: 'service:reports' }): RequestContext {
    return { requester, namespace: this.registry.namespaces.of(orgId), fieldManager: 'reports' };
  }

  /** The organization's reports, by id. */
  async list(orgId: number): Promise<StoredReport[]> {
    await this.registry.init();
    const { items } = await this.registry.list(this.ctx(orgId), reportKind, {});
    return items.sort((a, b) => reportIdOf(a) - reportIdOf(b));
  }

  /** The report `id` of the organization, or undefined. */
  async get(orgId: number, id: number): Promise<StoredReport | undefined> {
    await this.registry.init();
    try {
      return await this.registry.get(this.ctx(orgId), reportKind, String(id));
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** Stores a new report, numbered by the registry; its owner is `writer`. */
  async create(orgId: number, writer: ReportWriter, spec: ReportSpec): Promise<StoredReport> {
    await this.registry.init();
    return this.registry.create(this.ctx(orgId, writer), reportKind, {
      apiVersion: `${reportKind.group}/${reportKind.version}`,
      kind: reportKind.kind,
      metadata: { labels: withNextRun({ [REPORT_USER_LABEL]: String(writer.userId) }, spec, Date.now(), Date.now()) },
      spec,
    });
  }

  /** Replaces the report's spec (its owner stays); undefined when the organization has no such report. */
  async update(orgId: number, writer: Requester, id: number, spec: ReportSpec): Promise<StoredReport | undefined> {
    await this.registry.init();
    try {
      const now = Date.now();
      return await this.registry.patch(this.ctx(orgId, writer), reportKind, String(id), (current) => ({ ...current, metadata: { ...current.metadata, labels: withNextRun(current.metadata.labels, spec, now, now) }, spec }));
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** Deletes the report; false when the organization has no such report. */
  async delete(orgId: number, writer: Requester, id: number): Promise<boolean> {
    await this.registry.init();
    try {
      await this.registry.delete(this.ctx(orgId, writer), reportKind, String(id));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  /** The reports of every organization due at `now` (their next run passed), at most `limit`. */
  async due(now: number, limit = 100): Promise<StoredReport[]> {
    await this.registry.init();
    return (await this.registry.findLabelBelow(reportKind, NEXT_RUN_LABEL, Math.floor(now / 1000) + 1, limit)) as StoredReport[];
  }

  /**
   * Claims the due send of `report` for this process: in one locked read-modify-write, a report still due has its
   * next run moved past `now` (missed runs are not made up) and is answered; one another replica claimed first (its
   * next run moved), or deleted, is undefined. Of replicas claiming at once exactly one gets it.
   */
  async claim(report: StoredReport, now: number): Promise<StoredReport | undefined> {
    await this.registry.init();
    const ctx: RequestContext = { requester: { identity: 'service:report-scheduler' }, namespace: report.metadata.namespace!, fieldManager: 'report-scheduler' };
    try {
      return await this.registry.patch(ctx, reportKind, report.metadata.name, (current) => {
        const due = Number(current.metadata.labels?.[NEXT_RUN_LABEL]);
        if (current.metadata.uid !== report.metadata.uid || !(due * 1000 <= now)) throw new ClaimedElsewhere();
        const savedAt = Date.parse(current.metadata.creationTimestamp ?? '') || now;
        return {
          ...current,
          metadata: { ...current.metadata, labels: withNextRun(current.metadata.labels, current.spec, Math.floor(now / 1000) * 1000 + 1000, savedAt), annotations: { ...current.metadata.annotations, [LAST_SENT_ANNOTATION]: new Date(now).toISOString() } },
        };
      });
    } catch (err) {
      if (err instanceof ClaimedElsewhere || (err instanceof StatusError && err.code === 404)) return undefined;
      throw err;
    }
  }

  /** The organization's report settings, undefined until saved once. */
  async settings(orgId: number): Promise<StoredReportSettings | undefined> {
    await this.registry.init();
    try {
      return await this.registry.get(this.ctx(orgId), reportSettingsKind, REPORT_SETTINGS_NAME);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** Creates or replaces the organization's report settings, in one write. */
  async saveSettings(orgId: number, writer: ReportWriter, spec: ReportSettingsSpec): Promise<StoredReportSettings> {
    await this.registry.init();
    const name = REPORT_SETTINGS_NAME;
    const { object } = await this.registry.upsert(this.ctx(orgId, writer), reportSettingsKind, name, (current) => ({
      apiVersion: `${reportSettingsKind.group}/${reportSettingsKind.version}`,
      kind: reportSettingsKind.kind,
      metadata: { ...(current?.metadata ?? {}), name, labels: { ...(current?.metadata.labels ?? {}), [REPORT_USER_LABEL]: String(writer.userId) } },
      spec,
    }));
    return object;
  }
}

const isNotFound = (err: unknown): boolean => typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 404;
