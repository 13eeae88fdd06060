import type { DataResponse, DataSourcePlugin } from '../types';
import { testDataResources } from './testdata-resources';
import { SCENARIOS } from './testdata-scenarios';

const byId = new Map(SCENARIOS.map((s) => [s.id, s]));

/**
 * TestData (`svc-testdata-datasource`, alias `testdata`; anchor-breadth §3.5, §4): data made up from the query and
 * the range alone, no upstream. `scenarioId` picks the scenario (default `random_walk`); an unknown one is that
 * query's error. Health is always OK.
 *
 * @example
 *   await testDataPlugin.query(ds, [{ refId: 'A', maxDataPoints: 100, intervalMs: 60000, queryType: '', model: { scenarioId: 'random_walk', seriesCount: 2 } }], ctx);
 *   // { A: { frames: [<A-series>, <A-series1>] } }
 */
export const testDataPlugin: DataSourcePlugin = {
  id: 'svc-testdata-datasource',
  aliases: ['testdata'],
  name: 'TestData',
  checkHealth: async () => ({ status: 'OK', message: 'Data source is working' }),
  async query(_ds, queries, ctx) {
    const out: Record<string, DataResponse> = {};
    for (const q of queries) {
      const id = typeof q.model.scenarioId === 'string' && q.model.scenarioId !== '' ? q.model.scenarioId : 'random_walk';
      const scenario = byId.get(id);
      out[q.refId] = scenario
        ? await scenario.run(q, ctx.range, ctx.signal)
        : { frames: [], error: `unknown scenario ${JSON.stringify(id.slice(0, 100))}: see the resource "scenarios" for the known ones`, errorSource: 'plugin', status: 400 };
    }
    return out;
  },
  resources: async (_ds, req) => testDataResources(req),
};
