import { folderKind, playlistKind } from '../../apis';
import { StatusError } from '../../pkg/errors';
import { anyKind, type Resource } from '../../pkg/meta';
import type { RequestContext } from '../../pkg/registry';
import { startTestApp, type TestApp } from '../support/app';

/** Registry write rules that services use in process: the generation precondition (the legacy `version`). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const ctx: RequestContext = { requester: { identity: 'user:test' }, namespace: 'default', fieldManager: 'test' };
const PLAYLISTS = anyKind(playlistKind);
const FOLDERS = anyKind(folderKind);

const retitled = (title: string) => (current: Resource) => ({ ...current, spec: { ...current.spec, title } });

async function refusal(write: Promise<unknown>): Promise<StatusError> {
  const err = await write.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(StatusError);
  return err as StatusError;
}

describe('expectedGeneration', () => {
  it('lets an update made on the stored generation through, and refuses one made on another with a 409', async () => {
    await t.registry.create(ctx, PLAYLISTS, { metadata: { name: 'gen' }, spec: { title: 'one', interval: '5m', items: [] } });
    const second = await t.registry.patch(ctx, PLAYLISTS, 'gen', retitled('two'), { expectedGeneration: 1 });
    expect(second.metadata.generation).toBe(2);
    const stale = await refusal(t.registry.patch(ctx, PLAYLISTS, 'gen', retitled('three'), { expectedGeneration: 1 }));
    expect([stale.code, stale.reason, stale.message]).toEqual([409, 'Conflict', 'Operation cannot be fulfilled on playlists.playlist.svc.app "gen": the object has been modified: its generation is 2, not 1']);
    expect((await t.registry.get(ctx, PLAYLISTS, 'gen')).spec.title).toBe('two');
  });

  it('answers a stale generation with the kind\'s own conflict (the folder\'s 412 version-mismatch)', async () => {
    await t.registry.create(ctx, FOLDERS, { metadata: { name: 'gen-folder' }, spec: { title: 'one' } });
    const stale = await refusal(t.registry.patch(ctx, FOLDERS, 'gen-folder', retitled('two'), { expectedGeneration: 2 }));
    expect([stale.code, stale.statusWord, stale.message]).toEqual([412, 'version-mismatch', 'the folder has been changed by someone else']);
  });

  it('is decided in the locked read-modify-write: of concurrent updates on one generation exactly one wins', async () => {
    await t.registry.create(ctx, PLAYLISTS, { metadata: { name: 'gen-race' }, spec: { title: 'zero', interval: '5m', items: [] } });
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => t.registry.patch(ctx, PLAYLISTS, 'gen-race', retitled(`t${i}`), { expectedGeneration: 1 })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(Array(7).fill(409));
  });
});

describe('upsert', () => {
  const body = (title: string) => (current: Resource | undefined) => ({ metadata: { ...current?.metadata, name: 'up' }, spec: { title, interval: '5m', items: [] } });

  it('creates the object when there is none, and updates it (generation + 1) when there is', async () => {
    const first = await t.registry.upsert(ctx, PLAYLISTS, 'up', body('one'));
    expect([first.created, first.object.spec.title, first.object.metadata.generation]).toEqual([true, 'one', 1]);
    const second = await t.registry.upsert(ctx, PLAYLISTS, 'up', (current) => {
      expect(current?.spec.title).toBe('one');
      return body('two')(current);
    });
    expect([second.created, second.object.spec.title, second.object.metadata.generation]).toEqual([false, 'two', 2]);
    expect(second.object.metadata.uid).toBe(first.object.metadata.uid);
  });

  it('never fails on a concurrent writer of the same name: of simultaneous upserts exactly one creates', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.registry.upsert(ctx, PLAYLISTS, 'up-race', (current) => ({ metadata: { ...current?.metadata, name: 'up-race' }, spec: { title: `t${i}`, interval: '5m', items: [] } })),
      ),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.object.metadata.uid)).size).toBe(1);
  });

  it('holds the body to the kind\'s rules as a create or an update would', async () => {
    const invalid = await refusal(t.registry.upsert(ctx, PLAYLISTS, 'up-bad', () => ({ metadata: { name: 'up-bad' }, spec: { title: '', interval: '5m' } })));
    expect(invalid.code).toBe(422);
    const renamed = await refusal(t.registry.upsert(ctx, PLAYLISTS, 'up', () => ({ metadata: { name: 'other' }, spec: { title: 'x', interval: '5m' } })));
    expect(renamed.code).toBe(400);
  });
});
