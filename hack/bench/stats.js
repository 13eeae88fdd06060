// Timing helpers for the benchmark: a clock, percentiles, and a runner that keeps N requests in flight.
'use strict';

/** Milliseconds, with sub-millisecond resolution. */
const now = () => Number(process.hrtime.bigint()) / 1e6;

/** Nearest-rank percentile of `samples` (ms); NaN for no samples. */
function percentile(samples, p) {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** { p50, p95 } of a list of latencies in ms. */
const summarize = (samples) => ({ p50: percentile(samples, 50), p95: percentile(samples, 95) });

/**
 * Runs `fn(i)` for i in [0, count) with at most `concurrency` calls in flight.
 * Returns the throughput (calls/s over the whole run) and each call's latency.
 */
async function runConcurrent(count, concurrency, fn) {
  const latencies = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const t0 = now();
      await fn(i);
      latencies[i] = now() - t0;
    }
  };
  const t0 = now();
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  const seconds = (now() - t0) / 1000;
  return { perSecond: count / seconds, seconds, ...summarize(latencies) };
}

/** Runs `fn(i)` for each i in [0, count) one after another; latency percentiles in ms. */
async function runSequential(count, fn) {
  const latencies = [];
  for (let i = 0; i < count; i++) {
    const t0 = now();
    await fn(i);
    latencies.push(now() - t0);
  }
  return summarize(latencies);
}

module.exports = { now, percentile, summarize, runConcurrent, runSequential };
