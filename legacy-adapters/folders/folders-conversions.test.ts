import { StatusError } from '../../pkg/errors';
import type { Resource } from '../../pkg/meta';
import { legacyError } from '../shared/errors';
import {
  folderBody,
  fromFolderDTO,
  folderErrors,
  expectedGenerationOf,
  movedFolder,
  parseCreateFolderCommand,
  parseMoveFolderCommand,
  parseUpdateFolderCommand,
  redactedParent,
  toCreateFolderCommand,
  toFolderDTO,
  toFolderSearchHit,
  updatedFolder,
} from './folders-conversions';

const folder = (over: Partial<Resource['metadata']> = {}, spec: Record<string, unknown> = { title: 'Department ABC' }): Resource => ({
  apiVersion: 'folder.svc.app/v1beta1',
  kind: 'Folder',
  metadata: {
    name: 'nErXDvCkzz',
    namespace: 'default',
    uid: '8f6c9e0b-4a43-4c38-9d8e-2a52e8b7c001',
    resourceVersion: '12',
    generation: 3,
    creationTimestamp: '2026-01-02T03:04:05Z',
    labels: { 'svc.app/deprecatedInternalID': '7' },
    annotations: { 'svc.app/createdBy': 'user:admin', 'svc.app/updatedBy': 'user:ana', 'svc.app/updatedTimestamp': '2026-01-03T00:00:00Z' },
    ...over,
  },
  spec,
  status: {},
});

const all = { canSave: true, canEdit: true, canAdmin: true, canDelete: true };
const none = { canSave: false, canEdit: false, canAdmin: false, canDelete: false };

const badRequest = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(StatusError);
    return { code: (err as StatusError).code, message: (err as StatusError).message };
  }
  throw new Error('expected a StatusError');
};

describe('folder records', () => {
  it('builds the anchor record of a root folder: id from the label, version from the generation, no parents', () => {
    const dto = toFolderDTO(folder(), { access: all, createdBy: 'admin', updatedBy: 'ana' });
    expect(dto).toEqual({
      id: 7,
      uid: 'nErXDvCkzz',
      title: 'Department ABC',
      url: '/dashboards/f/nErXDvCkzz/department-abc',
      hasAcl: false,
      ...all,
      createdBy: 'admin',
      created: '2026-01-02T03:04:05Z',
      updatedBy: 'ana',
      updated: '2026-01-03T00:00:00Z',
      version: 3,
    });
  });

  it('adds parentUid and the parents of a nested folder, redacted ones included', () => {
    const nested = folder({ annotations: { 'svc.app/folder': 'p2' } });
    const parent = toFolderDTO(folder({ name: 'p2' }), { access: none, createdBy: 'admin', updatedBy: 'admin' });
    const dto = toFolderDTO(nested, { access: none, createdBy: 'Anonymous', updatedBy: 'Anonymous', parents: [redactedParent(), parent] });
    expect(dto.parentUid).toBe('p2');
    expect(dto.parents).toEqual([{ uid: 'redacted', title: 'redacted' }, parent]);
    // Never written: updated is the creation time.
    expect(dto.updated).toBe('2026-01-02T03:04:05Z');
  });

  it('round-trips what the kind stores through the record and the list form', () => {
    for (const obj of [folder(), folder({ annotations: { 'svc.app/folder': 'parent-1' } })]) {
      const body = fromFolderDTO(toFolderDTO(obj, { access: all, createdBy: 'a', updatedBy: 'a' }));
      expect(body.metadata.name).toBe(obj.metadata.name);
      expect(body.metadata.labels).toEqual(obj.metadata.labels);
      expect(body.metadata.annotations?.['svc.app/folder']).toBe(obj.metadata.annotations?.['svc.app/folder']);
      expect(body.spec).toEqual(obj.spec);
      expect(fromFolderDTO(toFolderSearchHit(obj))).toEqual(body);
    }
  });

  it('round-trips a create command through the Folder body', () => {
    const cmd = { uid: 'ops', title: 'Ops', description: 'team', parentUid: 'root-1' };
    expect(toCreateFolderCommand(folderBody(cmd))).toEqual(cmd);
    expect(folderBody({ uid: 'x', title: 'X', parentUid: '' })).toEqual({ metadata: { name: 'x' }, spec: { title: 'X' } });
  });
});

describe('binding legacy bodies', () => {
  it('trims the title and requires it', () => {
    expect(parseCreateFolderCommand({ title: '  Ops  ' })).toEqual({ uid: '', title: 'Ops', parentUid: '' });
    expect(badRequest(() => parseCreateFolderCommand({ title: '   ' }))).toEqual({ code: 400, message: 'folder title cannot be empty' });
    expect(badRequest(() => parseCreateFolderCommand({}))).toEqual({ code: 400, message: 'folder title cannot be empty' });
    expect(badRequest(() => parseCreateFolderCommand({ title: 5 }))).toEqual({ code: 400, message: 'bad request data' });
    expect(badRequest(() => parseCreateFolderCommand([]))).toEqual({ code: 400, message: 'bad request data' });
  });

  it('checks a chosen uid as the anchor does', () => {
    expect(parseCreateFolderCommand({ uid: 'A-b_9', title: 't', parentUid: 'p' })).toEqual({ uid: 'A-b_9', title: 't', parentUid: 'p' });
    expect(badRequest(() => parseCreateFolderCommand({ uid: 'a b', title: 't' })).message).toBe('uid contains illegal characters');
    expect(badRequest(() => parseCreateFolderCommand({ uid: 'x'.repeat(41), title: 't' })).message).toBe('uid too long, max 40 characters');
    expect(badRequest(() => parseCreateFolderCommand({ uid: 'general', title: 't' })).message).toBe('invalid uid for folder provided');
  });

  it('binds updates and moves', () => {
    expect(parseUpdateFolderCommand({ title: ' New ', version: 2 })).toEqual({ title: 'New', version: 2, overwrite: false });
    expect(parseUpdateFolderCommand({ overwrite: true })).toEqual({ overwrite: true });
    expect(badRequest(() => parseUpdateFolderCommand({ title: '' })).message).toBe('folder title cannot be empty');
    expect(badRequest(() => parseUpdateFolderCommand({ version: '2' })).message).toBe('bad request data');
    expect(badRequest(() => parseUpdateFolderCommand({ overwrite: 'yes' })).message).toBe('bad request data');
    expect(parseMoveFolderCommand({})).toEqual({ parentUid: '' });
    expect(parseMoveFolderCommand(undefined)).toEqual({ parentUid: '' });
    expect(parseMoveFolderCommand({ parentUid: 'p' })).toEqual({ parentUid: 'p' });
    expect(badRequest(() => parseMoveFolderCommand({ parentUid: 1 })).message).toBe('bad request data');
  });
});

describe('changes', () => {
  it('takes the legacy version as the generation; overwrite skips the check', () => {
    expect(expectedGenerationOf({ version: 3, overwrite: false })).toBe(3);
    expect(expectedGenerationOf({ overwrite: false })).toBe(0);
    expect(expectedGenerationOf({ version: 1, overwrite: true })).toBeUndefined();
  });

  it('changes the title, keeps the rest', () => {
    const next = updatedFolder(folder(), { title: 'New', overwrite: false });
    expect(next.spec).toEqual({ title: 'New' });
    expect(next.metadata).toEqual(folder().metadata);
  });

  it('moves under a parent and back to the root', () => {
    const moved = movedFolder(folder(), 'p1');
    expect(moved.metadata.annotations?.['svc.app/folder']).toBe('p1');
    const back = movedFolder(moved, '');
    expect(back.metadata.annotations).toEqual(folder().metadata.annotations);
  });
});

describe('errors in the anchor words', () => {
  const gr = { group: 'folder.svc.app', resource: 'folders' };
  it('maps not found, taken uid and invalid fields; passes the rest', () => {
    const nf = legacyError(folderErrors, StatusError.notFound(gr, 'x')) as StatusError;
    expect([nf.code, nf.message, nf.statusWord]).toEqual([404, 'folder not found', 'not-found']);
    const taken = legacyError(folderErrors, StatusError.alreadyExists(gr, 'x')) as StatusError;
    expect([taken.code, taken.message]).toEqual([412, 'a folder/dashboard with the same uid already exists']);
    const invalid = legacyError(folderErrors, StatusError.invalid({ group: 'folder.svc.app', kind: 'Folder' }, 'x', [{ field: 'spec.title', message: 'folder title cannot be empty' }])) as StatusError;
    expect([invalid.code, invalid.message]).toEqual([400, 'folder title cannot be empty']);
    const cycle = StatusError.badRequest('cycle');
    expect(legacyError(folderErrors, cycle)).toBe(cycle);
    const other = new Error('x');
    expect(legacyError(folderErrors, other)).toBe(other);
  });
});
