/**
 * The kind conformance suite (kind-suite.ts) through HTTP, for every kind served under /apis; and the guard that
 * every registered kind, served or not, has its conformance samples.
 */
import fs from 'node:fs';
import path from 'node:path';
import { allKinds, identityKinds, internalKinds } from '../../apis';
import { startTestApp, type TestApp } from '../support/app';
import { collectionPath, httpKindClient } from './kind-client';
import { samplesPath } from './kind-samples';
import { describeKindConformance } from './kind-suite';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

test('every registered kind has conformance samples beside it', () => {
  const missing = [...allKinds, ...identityKinds, ...internalKinds].map(samplesPath).filter((p) => !fs.existsSync(path.join(__dirname, '..', '..', p)));
  expect(missing).toEqual([]);
});

describe.each(allKinds.map((k) => [`${k.kind} ${k.group}/${k.version}`, k] as const))('%s', (_label, kind) => {
  describeKindConformance(kind, true, () => ({
    client: httpKindClient(t, kind),
    storage: t.storage,
    http: { base: collectionPath(kind), as: t.as, anonymous: t.anonymous },
  }));
});
