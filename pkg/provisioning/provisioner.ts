import path from 'node:path';
import type { Logger } from '../log';
import { readDashboardFiles } from './dashboard-files';
import { applyProvider, removeOrphans } from './dashboards-apply';
import { type DashboardProvider, planProviders } from './dashboards-config';
import { applyDataSources } from './datasources-apply';
import { planDataSources } from './datasources-config';
import type { ApplyDeps } from './provisioner-context';
import { readYamlFiles } from './read-files';
import type { ValueSources } from './values';

/** The lock replicas take to apply files: one applies a change at a time, the next finds it applied. */
const LOCK = 'provisioning';

export interface ProvisionerOptions {
  /** `paths.provisioning`: `datasources/*.yaml` and `dashboards/*.yaml` below it. */
  root: string;
  /** What relative provider paths are resolved against. */
  cwd: string;
  sources: ValueSources;
  /** Runs `fn` holding a lock every replica on the database shares (Storage.exclusively). */
  exclusively<T>(name: string, fn: () => Promise<T>): Promise<T>;
  log: Logger;
}

/**
 * Provisioning from files (anchor-breadth §9): data sources and dashboard providers, applied at start, on the
 * reload routes and, for dashboards, every provider's `updateIntervalSeconds`. Every apply reads and checks all
 * files first (a bad one is a ProvisioningError and nothing of it is written), then writes through the registry as
 * the provisioner, holding the replicas' lock.
 *
 * @example const p = new Provisioner(deps, opts); await p.start(); ...; p.stop();
 */
export class Provisioner {
  private providers: DashboardProvider[] = [];
  private timers: NodeJS.Timeout[] = [];
  /** Where prune and orphaned providers are looked for: every organization, read at each reload. */
  private readonly orgs = new Set<number>([1]);
  private stopped = false;

  constructor(
    private readonly deps: ApplyDeps,
    private readonly opts: ProvisionerOptions,
  ) {}

  /** Applies every file once (start-up), then polls the dashboard providers. */
  async start(): Promise<void> {
    await this.reloadDataSources();
    await this.reloadDashboards();
  }

  /** `datasources/*.yaml` applied; returns once the data sources are stored. */
  async reloadDataSources(): Promise<void> {
    const plan = planDataSources(readYamlFiles(path.join(this.opts.root, 'datasources')), this.opts.sources);
    const done = await this.opts.exclusively(LOCK, async () => {
      await this.readOrgs();
      return applyDataSources(this.deps, plan, this.orgs);
    });
    this.opts.log.info('data sources provisioned', { files: plan.files.length, ...done });
  }

  /**
   * `dashboards/*.yaml` read, every provider's files stored; returns once they are, then polls with the new
   * providers. A bad file leaves the previous providers polling.
   */
  async reloadDashboards(): Promise<void> {
    const providers = planProviders(readYamlFiles(path.join(this.opts.root, 'dashboards')), this.opts.sources, this.opts.cwd);
    const files = providers.map((p, i) => readDashboardFiles(p, i));
    this.stopPolling();
    try {
      await this.opts.exclusively(LOCK, async () => {
        await this.readOrgs();
        for (const [i, p] of providers.entries()) {
          this.orgs.add(p.orgId);
          const done = await applyProvider(this.deps, p, i, files[i]!);
          this.opts.log.info('dashboards provisioned', { provider: p.name, files: files[i]!.length, ...done });
        }
        await removeOrphans(this.deps, providers, this.orgs);
      });
      this.providers = providers;
    } finally {
      this.startPolling();
    }
  }

  private async readOrgs(): Promise<void> {
    this.orgs.clear();
    for (const id of [1, ...(await this.deps.orgIds())]) this.orgs.add(id);
  }

  /** Ends polling (the server's shutdown). */
  stop(): void {
    this.stopped = true;
    this.stopPolling();
  }

  private stopPolling(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
  }

  private startPolling(): void {
    if (this.stopped) return;
    this.providers.forEach((p, i) => {
      let running = false;
      const poll = async () => {
        if (running) return;
        running = true;
        try {
          const files = readDashboardFiles(p, i);
          await this.opts.exclusively(LOCK, () => applyProvider(this.deps, p, i, files));
        } catch (err) {
          this.opts.log.error('dashboards provisioning failed', { provider: p.name, error: err instanceof Error ? err.message : String(err) });
        } finally {
          running = false;
        }
      };
      const timer = setInterval(() => void poll(), p.updateIntervalSeconds * 1000);
      // Polling alone keeps no process (or test) alive.
      timer.unref();
      this.timers.push(timer);
    });
  }
}
