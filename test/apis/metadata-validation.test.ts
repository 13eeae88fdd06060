/**
 * Labels and annotations are checked as kube-apiserver's ValidateLabels and ValidateAnnotations check them: each
 * message names the key or value it is about (`metadata.labels: Invalid value: "bad key!": name part must ...`),
 * annotation keys are checked lower-cased, and nothing is stored.
 */
import { startTestApp, type TestApp } from '../support/app';
import { PLAYLISTS } from '../support/paths';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const post = (name: string, metadata: Record<string, unknown>) => t.as.post(PLAYLISTS).send({ metadata: { name, ...metadata }, spec: { title: name, interval: '5m', items: [] } });

test('a bad label key or value, or annotation key, is 422 naming it', async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ labels: { 'bad key!': 'x' } }, 'metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters'],
    [{ labels: { team: 'no spaces' } }, 'metadata.labels: Invalid value: "no spaces": a valid label must be an empty string or consist of'],
    [{ annotations: { 'a/b/c': 'x' } }, 'metadata.annotations: Invalid value: "a/b/c": a valid label key must consist of'],
  ];
  for (const [metadata, message] of cases) {
    const res = await post('meta-bad', metadata);
    expect([res.status, res.body.message]).toEqual([422, expect.stringContaining(message)]);
  }
  await t.as.get(`${PLAYLISTS}/meta-bad`).expect(404);
});

test('annotation keys are checked lower-cased, as kube-apiserver checks them', async () => {
  const res = await post('meta-upper', { annotations: { 'Example.COM/Owner': 'ops' } });
  expect(res.status).toBe(201);
  expect(res.body.metadata.annotations['Example.COM/Owner']).toBe('ops');
});
