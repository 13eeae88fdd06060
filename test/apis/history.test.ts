/**
 * The registry's generic object history (`Registry.history`, `historyVersion`) on a kind other than dashboards:
 * versions are generations, newest first, of the object's current life, paged by registry continue tokens.
 */
import { playlistKind as typedPlaylistKind } from '../../apis';
import { StatusError } from '../../pkg/errors';
import { anyKind } from '../../pkg/meta';
import type { RequestContext } from '../../pkg/registry';
import { startTestApp, type TestApp } from '../support/app';

const playlistKind = anyKind(typedPlaylistKind);
const ctx: RequestContext = { requester: { identity: 'user:admin' }, namespace: 'default', fieldManager: 'history-test' };
const spec = (title: string) => ({ title, interval: '5m', items: [] });

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function playlistWithVersions(name: string, titles: string[]) {
  await t.registry.create(ctx, playlistKind, { metadata: { name }, spec: spec(titles[0]) });
  for (const title of titles.slice(1)) await t.registry.patch(ctx, playlistKind, name, (cur) => ({ ...cur, spec: spec(title) }));
}

const generations = (page: { items: { generation: number }[] }) => page.items.map((v) => v.generation);

test('lists generations newest first, each as the write that made it, and pages with continue tokens', async () => {
  await playlistWithVersions('h1', ['a', 'b', 'c', 'd']);
  // A metadata-only write is no version of its own.
  await t.registry.patch(ctx, playlistKind, 'h1', (cur) => ({ ...cur, metadata: { ...cur.metadata, labels: { team: 'x' } } }));
  const all = await t.registry.history(ctx, playlistKind, 'h1');
  expect(generations(all)).toEqual([4, 3, 2, 1]);
  expect(all.continue).toBeUndefined();
  expect(all.items.map((v) => v.object.spec.title)).toEqual(['d', 'c', 'b', 'a']);
  expect(all.items[0].object.metadata.labels?.team).toBeUndefined();

  const first = await t.registry.history(ctx, playlistKind, 'h1', { limit: 3 });
  expect(generations(first)).toEqual([4, 3, 2]);
  const rest = await t.registry.history(ctx, playlistKind, 'h1', { limit: 3, continue: first.continue });
  expect(generations(rest)).toEqual([1]);
  expect(rest.continue).toBeUndefined();

  expect((await t.registry.historyVersion(ctx, playlistKind, 'h1', 2))?.object.spec.title).toBe('b');
  expect(await t.registry.historyVersion(ctx, playlistKind, 'h1', 9)).toBeUndefined();
});

test('a token of another object, or a forged one, is a 400; an unknown object is a 404', async () => {
  await playlistWithVersions('h2', ['a', 'b']);
  const page = await t.registry.history(ctx, playlistKind, 'h2', { limit: 1 });
  await expect(t.registry.history(ctx, playlistKind, 'h1', { continue: page.continue })).rejects.toMatchObject({ code: 400 });
  await expect(t.registry.history(ctx, playlistKind, 'h2', { continue: 'abc' })).rejects.toBeInstanceOf(StatusError);
  await expect(t.registry.history(ctx, playlistKind, 'nope')).rejects.toMatchObject({ code: 404 });
});

test('a deleted and re-created object starts a new history; another namespace has its own', async () => {
  await playlistWithVersions('h3', ['a', 'b', 'c']);
  await t.registry.delete(ctx, playlistKind, 'h3');
  await t.registry.create(ctx, playlistKind, { metadata: { name: 'h3' }, spec: spec('new') });
  const page = await t.registry.history(ctx, playlistKind, 'h3');
  expect(page.items.map((v) => [v.generation, v.object.spec.title])).toEqual([[1, 'new']]);
  await expect(t.registry.history({ ...ctx, namespace: 'org-2' }, playlistKind, 'h3')).rejects.toMatchObject({ code: 404 });
});

test('more versions than one storage batch page correctly', async () => {
  const titles = Array.from({ length: 130 }, (_, i) => `t${i + 1}`);
  await playlistWithVersions('h4', titles);
  const seen: number[] = [];
  let next: string | undefined;
  do {
    const page = await t.registry.history(ctx, playlistKind, 'h4', { limit: 45, continue: next });
    seen.push(...generations(page));
    next = page.continue;
  } while (next);
  expect(seen).toEqual(Array.from({ length: 130 }, (_, i) => 130 - i));
});
