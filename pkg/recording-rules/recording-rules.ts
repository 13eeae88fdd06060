import { CLAIMED_SLOT_ANNOTATION, type RecordingRuleSpec, recordingRuleKind } from '../../apis/recordingrules.svc.app/v0alpha1/recordingrule';
import { recordingRuleWriterKind, WRITER_NAME } from '../../apis/recordingrules.svc.app/v0alpha1/recordingrulewriter';
import { StatusError } from '../errors';
import type { Logger } from '../log';
import type { Resource } from '../meta';
import type { Registry, RequestContext } from '../registry';
import { type EvaluationDeps, evaluateRule } from './evaluate';
import { remoteWrite } from './remote-write';

export interface RecordingRulesDeps extends EvaluationDeps {
  /** A registry serving the recording rule kinds (a companion of the server's, over the same database). */
  registry: Registry;
  /** The organizations whose rules run, by id (read at every pass). */
  orgIds(): Promise<number[]>;
  log: Logger;
}

export interface RecordingRulesOptions {
  /** How often a replica looks for rules due (ms): the delay of an evaluation past its interval's start. */
  tickMs?: number;
  now?: () => number;
}

type RuleObject = Resource<RecordingRuleSpec>;

/**
 * The evaluation of the enterprise edition's recording rules: every `tickMs` each replica lists the active rules of
 * every organization and evaluates those due. A rule is due once per interval, in the slot starting at
 * `floor(now / interval) * interval`: the
 * replica that claims the slot evaluates it, and the claim is a write of the slot on the rule (annotation
 * {@link CLAIMED_SLOT_ANNOTATION}) with the resourceVersion it read as precondition, so of replicas racing for one
 * slot exactly one wins (the others get the registry's conflict, and skip). The series are written with the
 * Prometheus remote write protocol (remote-write.ts) to the organization's write target
 * (RecordingRuleWriter), or to the rule's `destDataSourceUid` at the target's path.
 *
 * @example const rules = new RecordingRules(deps); rules.start(); ...; await rules.stop();
 */
export class RecordingRules {
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<void> | undefined;
  /** `<namespace>/<name>` of the rules this process is evaluating: one evaluation of a rule at a time. */
  private readonly running = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();
  private readonly tickMs: number;
  private readonly now: () => number;

  constructor(
    readonly deps: RecordingRulesDeps,
    opts: RecordingRulesOptions = {},
  ) {
    this.tickMs = opts.tickMs ?? 1000;
    this.now = opts.now ?? Date.now;
  }

  /** The server's own context in `namespace` (no access check: the rule was checked when written). */
  systemContext(namespace: string): RequestContext {
    return { requester: { identity: 'system:recording-rules', login: '' }, namespace, fieldManager: 'recording-rules' };
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (!this.pass) this.pass = this.tick().finally(() => (this.pass = undefined));
    }, this.tickMs);
    this.timer.unref();
  }

  /** Stops the passes and ends the evaluations under way (their queries and writes are aborted). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.stopping.abort(new Error('stopping'));
    await this.pass;
    await Promise.allSettled([...this.running.values()]);
  }

  /** One pass: claims and starts the evaluation of each active rule due now (not awaited; see {@link idle}). */
  async tick(): Promise<void> {
    let orgs: number[];
    try {
      orgs = await this.deps.orgIds();
    } catch (err) {
      this.deps.log.warn('recording rules: could not list the organizations', { error: message(err) });
      return;
    }
    for (const orgId of orgs) {
      if (this.stopping.signal.aborted) return;
      const namespace = this.deps.registry.namespaces.of(orgId);
      try {
        const { items } = await this.deps.registry.list(this.systemContext(namespace), recordingRuleKind, {});
        for (const rule of items) if (rule.spec.active) await this.claimAndRun(rule);
      } catch (err) {
        this.deps.log.warn('recording rules: could not read the rules', { namespace, error: message(err) });
      }
    }
  }

  /** Resolves once the evaluations under way have ended. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.running.values()]);
  }

  private async claimAndRun(rule: RuleObject): Promise<void> {
    const key = `${rule.metadata.namespace}/${rule.metadata.name}`;
    if (this.running.has(key)) return;
    // The slot by its start (epoch ms), not its number: a changed interval compares with what was claimed before.
    const intervalMs = rule.spec.interval * 1000;
    const at = this.now();
    const slot = Math.floor(at / intervalMs) * intervalMs;
    const claimed = Number(rule.metadata.annotations?.[CLAIMED_SLOT_ANNOTATION] ?? -1);
    if (Number.isFinite(claimed) && claimed >= slot) return;
    const ctx = this.systemContext(rule.metadata.namespace!);
    try {
      await this.deps.registry.patch(ctx, recordingRuleKind, rule.metadata.name, (current) => ({
        ...current,
        metadata: { ...current.metadata, resourceVersion: rule.metadata.resourceVersion, annotations: { ...current.metadata.annotations, [CLAIMED_SLOT_ANNOTATION]: String(slot) } },
      }));
    } catch (err) {
      // Another replica claimed it first, or the rule changed or went since it was listed: the next pass decides.
      if (err instanceof StatusError && (err.code === 409 || err.code === 404)) return;
      throw err;
    }
    const run = this.record(rule, at).finally(() => this.running.delete(key));
    this.running.set(key, run);
  }

  /**
   * Evaluates `rule` at `at`, the time its slot was claimed at (so every sample lies in the slot that was claimed), and
   * writes its series; failures are logged (the next interval tries again).
   */
  private async record(rule: RuleObject, at: number): Promise<void> {
    const namespace = rule.metadata.namespace!;
    try {
      const ctx = this.systemContext(namespace);
      const series = await evaluateRule(this.deps, ctx, rule.spec, at, this.stopping.signal);
      const writer = await this.deps.registry.get(ctx, recordingRuleWriterKind, WRITER_NAME).catch((err: unknown) => {
        if (err instanceof StatusError && err.code === 404) throw new Error('no remote write target is configured');
        throw err;
      });
      const dest = await this.deps.dataSources.resolve(ctx, { uid: rule.spec.destDataSourceUid || writer.spec.dataSourceUid });
      await remoteWrite(dest.instance, writer.spec.remoteWritePath, series, { userAgent: this.deps.userAgent, signal: AbortSignal.any([this.stopping.signal, AbortSignal.timeout(this.deps.timeoutMs)]) });
      this.deps.log.debug('recording rule evaluated', { namespace, rule: rule.metadata.name, series: series.length });
    } catch (err) {
      if (this.stopping.signal.aborted) return;
      this.deps.log.warn('recording rule failed', { namespace, rule: rule.metadata.name, error: message(err) });
    }
  }
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
