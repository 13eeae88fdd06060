// The benchmark's dashboards: their names, their bodies, and the fast seeding path through the Storage interface.
'use strict';
const { createHash, randomUUID } = require('node:crypto');

const GROUP = 'dashboard.svc.app';
const VERSION = 'v1beta1';
const RESOURCE = 'dashboards';
const NAMESPACE = 'default';
const COLLECTION = `/apis/${GROUP}/${VERSION}/namespaces/${NAMESPACE}/${RESOURCE}`;
/** Every dashboard carries team=t0..t9, so `team=t3` selects one object in ten. */
const TEAMS = 10;
const SELECTOR = 'team=t3';

/**
 * The i-th dashboard's name: a hash, so that creates land all over the name index (as real names do) rather than
 * always at its right edge, and so that a page boundary is somewhere in the middle of the keyspace.
 */
const nameOf = (i) => `d-${createHash('sha1').update(String(i)).digest('hex').slice(0, 16)}`;
const teamOf = (i) => `t${i % TEAMS}`;

/** A spec like the dashboard kind's conformance samples (apis/.../dashboard/dashboard-samples.ts), with a few more panels to give it a realistic size. */
function specOf(i) {
  return {
    title: `Service ${i} latency`,
    tags: ['api', 'bench', teamOf(i)],
    schemaVersion: 41,
    time: { from: 'now-6h', to: 'now' },
    panels: [1, 2, 3, 4].map((id) => ({
      id,
      type: 'timeseries',
      title: `p${90 + id} latency`,
      gridPos: { h: 8, w: 12, x: (id % 2) * 12, y: Math.floor((id - 1) / 2) * 8 },
      targets: [{ refId: 'A', expr: `histogram_quantile(0.${90 + id}, sum by (le) (rate(http_duration_bucket{svc="s${i}"}[5m])))` }],
    })),
  };
}

/**
 * The dashboard spec of ratios.js and profile.js (~400 bytes of JSON): what their creates send, and what pgbench
 * inserts as a row, so that a create is compared with an insert of the same document.
 */
const RATIOS_SPEC = { title: 'Service latency', tags: ['api', 'bench'], panels: [1, 2, 3].map((id) => ({ id, type: 'timeseries', title: `p9${id} latency`, targets: [{ refId: 'A', expr: `histogram_quantile(0.9${id}, rate(x[5m]))` }] })) };

/** The body of POST <COLLECTION> for the i-th dashboard. */
function bodyOf(i) {
  return {
    apiVersion: `${GROUP}/${VERSION}`,
    kind: 'Dashboard',
    metadata: { name: nameOf(i), labels: { team: teamOf(i) } },
    spec: specOf(i),
  };
}

const keyOf = (name) => ({ group: GROUP, resource: RESOURCE, namespace: NAMESPACE, name });

/**
 * The stored envelope of the i-th dashboard, made from `template` (an envelope the registry stored for a dashboard
 * created over HTTP), so seeded rows have exactly the shape and size of real ones: uid, timestamps, managedFields,
 * createdBy annotations.
 */
function storedValueOf(template, i) {
  const value = structuredClone(template);
  value.metadata.name = nameOf(i);
  value.metadata.uid = randomUUID();
  value.metadata.labels = { ...value.metadata.labels, team: teamOf(i) };
  value.spec = specOf(i);
  return value;
}

/**
 * Creates dashboards [from, to) straight through Storage, `batch` per transaction: each batch takes the type's
 * resourceVersion lock once, and every create still writes the object and its history row as the registry's would.
 */
async function seedThroughStorage(storage, template, from, to, batch = 500) {
  for (let start = from; start < to; start += batch) {
    const end = Math.min(to, start + batch);
    await storage.transact(async (tx) => {
      await tx.lockTypes([{ group: GROUP, resource: RESOURCE }]);
      for (let i = start; i < end; i++) await tx.create(keyOf(nameOf(i)), storedValueOf(template, i), { folder: '' });
    });
  }
}

module.exports = { GROUP, RESOURCE, NAMESPACE, COLLECTION, SELECTOR, RATIOS_SPEC, nameOf, bodyOf, keyOf, storedValueOf, seedThroughStorage };
