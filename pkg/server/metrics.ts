import { timingSafeEqual } from 'node:crypto';
import { type Request, type Response, Router } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Config } from '../config';
import type { Storage } from '../../storage';
import type { BuildInfo } from './build-info';
import type { FinishedRequest } from './request-log';

const PREFIX = 'dashboard_apiserver_';
const METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'WATCH']);

/**
 * The server's Prometheus metrics, one registry per server (two servers in one process keep theirs apart).
 * Requests are labelled by method, route template and status, never by path, so that the series stay few.
 * The pool, open watches and build are read when scraped; the rest is counted as it happens.
 *
 * @example
 *   const metrics = new Metrics(storage, build, () => hub.stats().watches);
 *   app.use(requestLog(log, metrics));
 *   app.use(metricsRouter(metrics, config.metrics));
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly durations: Histogram<'method' | 'route' | 'status'>;
  private readonly inFlight: Gauge;
  private readonly queries: Histogram<'outcome'>;
  private readonly watchEvents: Counter<'type'>;
  private readonly pollLag: Histogram;
  private readonly loginFailures: Counter;

  /**
   * The kept answers of /apis reads (pkg/server/answer-cache.ts): the bytes kept, read when scraped, and the answers
   * sent kept or computed, counted by the function returned.
   *
   * @example const sent = metrics.answers(() => cache.stats()); sent(true);
   */
  answers(stats: () => { bytes: number }): (kept: boolean) => void {
    const registers = [this.registry];
    new Gauge({ name: `${PREFIX}apis_answers_kept_bytes`, help: 'Bytes of JSON answers of /apis reads kept in memory (registry.answer_cache_mb)', registers, collect() { this.set(stats().bytes); } });
    const sent = new Counter({ name: `${PREFIX}apis_answers_total`, help: 'JSON answers of /apis reads, by source: kept (sent again, nothing stored had changed) or computed', labelNames: ['source'], registers });
    return (kept) => sent.inc({ source: kept ? 'kept' : 'computed' });
  }

  constructor(storage: Storage, build: BuildInfo, openWatches: () => number) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    const labelNames = ['method', 'route', 'status'] as const;
    this.requests = new Counter({ name: `${PREFIX}http_requests_total`, help: 'HTTP requests answered, by method (WATCH for watches), route template and status', labelNames, registers });
    this.durations = new Histogram({
      name: `${PREFIX}http_request_duration_seconds`,
      help: 'Time from a request to the end of its answer, by method (WATCH for watches, which last long), route template and status',
      labelNames,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800],
      registers,
    });
    this.inFlight = new Gauge({ name: `${PREFIX}http_requests_in_flight`, help: 'Requests being answered now (open watches included)', registers });
    this.queries = new Histogram({
      name: `${PREFIX}db_query_duration_seconds`,
      help: 'Database query durations, by outcome (ok or error)',
      labelNames: ['outcome'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
      registers,
    });
    storage.observeQueries((seconds, failed) => this.queries.observe({ outcome: failed ? 'error' : 'ok' }, seconds));
    // The embedded database has one connection and no pool: these are served for PostgreSQL only.
    if (storage.poolStats()) {
      const pool = (name: string, help: string, read: (p: NonNullable<ReturnType<Storage['poolStats']>>) => number) =>
        new Gauge({ name: `${PREFIX}db_pool_${name}`, help, registers, collect() { this.set(read(storage.poolStats()!)); } });
      pool('connections', 'Connections the pool holds open', (p) => p.total);
      pool('idle_connections', 'Open connections not lent to a query', (p) => p.idle);
      pool('waiting_clients', 'Queries waiting for a connection', (p) => p.waiting);
    }
    new Gauge({ name: `${PREFIX}watches_open`, help: 'Watches open now', registers, collect() { this.set(openWatches()); } });
    this.watchEvents = new Counter({ name: `${PREFIX}watch_events_sent_total`, help: 'Events given to watches, by type (ADDED, MODIFIED, DELETED, BOOKMARK, ERROR)', labelNames: ['type'], registers });
    this.pollLag = new Histogram({
      name: `${PREFIX}watch_poll_lag_seconds`,
      help: "Time from a write (its resourceVersion's clock, on whichever replica wrote it) to this process's watch poller reading it",
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 60],
      registers,
    });
    this.loginFailures = new Counter({ name: `${PREFIX}login_failures_total`, help: 'Refused password checks (basic authentication and the login form): wrong, throttled or disabled', registers });
    const info = new Gauge({ name: `${PREFIX}build_info`, help: 'The version and commit running (always 1)', labelNames: ['version', 'commit'], registers });
    info.set({ version: build.version, commit: build.commit }, 1);
  }

  started(): void {
    this.inFlight.inc();
  }

  finished(r: FinishedRequest): void {
    this.inFlight.dec();
    const method = r.watch ? 'WATCH' : r.method;
    const labels = { method: METHODS.has(method) ? method : 'other', route: r.route, status: String(r.status) };
    this.requests.inc(labels);
    this.durations.observe(labels, r.durationSeconds);
  }

  watchEvent(type: string): void {
    this.watchEvents.inc({ type });
  }

  watchPollLag(seconds: number): void {
    this.pollLag.observe(seconds);
  }

  loginFailed(): void {
    this.loginFailures.inc();
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * `GET /metrics` in Prometheus text format, as the anchor serves it: open unless `metrics.basic_auth_username` and
 * `basic_auth_password` are set, then only with them (401 otherwise); not served with `metrics.enabled=false`.
 */
export function metricsRouter(metrics: Metrics, settings: Config['metrics']): Router {
  const router = Router();
  if (!settings.enabled) return router;
  router.get('/metrics', async (req: Request, res: Response) => {
    if (settings.basic_auth_username !== '') {
      const [scheme, encoded] = (req.get('authorization') ?? '').split(' ');
      const [user, ...rest] = Buffer.from(encoded ?? '', 'base64').toString('utf8').split(':');
      const ok = scheme?.toLowerCase() === 'basic' && sameText(user, settings.basic_auth_username) && sameText(rest.join(':'), settings.basic_auth_password);
      if (!ok) {
        res.setHeader('WWW-Authenticate', 'Basic realm="metrics"');
        return void res.status(401).type('text/plain').send('Unauthorized\n');
      }
    }
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.send(await metrics.registry.metrics());
  });
  return router;
}
