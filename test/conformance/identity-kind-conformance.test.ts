/**
 * The kind conformance suite (kind-suite.ts) for the identity kinds, which no route serves under /apis (the legacy
 * /api endpoints are their clients), and the internal kinds (data keys): through the API of a registry over the
 * server's storage.
 */
import { identityKinds, internalKinds } from '../../apis';
import { startTestApp, type TestApp } from '../support/app';
import { registryKindClient } from './kind-client';
import { describeKindConformance } from './kind-suite';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe.each(internalKinds.map((k) => [`${k.kind} ${k.group}/${k.version}`, k] as const))('%s', (_label, kind) => {
  describeKindConformance(kind, false, () => ({ client: registryKindClient(t.registry.companion(internalKinds), kind), storage: t.storage }));
});

describe.each(identityKinds.map((k) => [`${k.kind} ${k.group}/${k.version}`, k] as const))('%s', (_label, kind) => {
  describeKindConformance(kind, false, () => ({ client: registryKindClient(t.users.registry, kind), storage: t.storage }));
});
