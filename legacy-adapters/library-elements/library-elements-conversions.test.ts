import { StatusError } from '../../pkg/errors';
import type { LibraryPanelSpec } from '../../apis/dashboard.svc.app/v1beta1/librarypanel';
import type { Resource } from '../../pkg/meta';
import { legacyError } from '../shared/errors';
import {
  type ElementSearch,
  libraryElementErrors,
  parseCreateCommand,
  parseElementSearch,
  parsePatchCommand,
  elementPage,
  toElementDTO,
  toNewElement,
  toPatchedElement,
  type LibraryElementObject,
} from './library-elements-conversions';

const element = (name: string, spec: Partial<LibraryPanelSpec> = {}, folder = ''): LibraryElementObject => ({
  apiVersion: 'dashboard.svc.app/v1beta1',
  kind: 'LibraryPanel',
  metadata: {
    name,
    namespace: 'default',
    uid: 'u',
    resourceVersion: '1',
    generation: 3,
    creationTimestamp: '2026-01-01T00:00:00Z',
    labels: { 'svc.app/deprecatedInternalID': '7' },
    annotations: folder ? { 'svc.app/folder': folder } : {},
  },
  spec: { name, kind: 1, type: 'stat', description: '', model: { type: 'stat' }, ...spec },
});

describe('commands', () => {
  it('a create command round-trips into the object it writes', () => {
    const cmd = parseCreateCommand({ uid: 'cpu', name: 'CPU', kind: 1, model: { type: 'stat' }, folderUid: 'general' });
    expect(cmd).toEqual({ uid: 'cpu', name: 'CPU', kind: 1, model: { type: 'stat' }, folder: { uid: '' } });
    expect(toNewElement(cmd, 'cpu', 'f')).toEqual({ metadata: { name: 'cpu', annotations: { 'svc.app/folder': 'f' } }, spec: { name: 'CPU', kind: 1, model: { type: 'stat' } } });
    expect(parseCreateCommand({ kind: 2, model: {}, folderId: 4 }).folder).toEqual({ id: 4 });
    expect(parseCreateCommand({ kind: 2, model: {}, folderId: 0 }).folder).toEqual({ uid: '' });
  });

  it('a patch keeps what it omits and moves only when told', () => {
    const current = element('cpu', { name: 'CPU' }, 'f');
    const kept = toPatchedElement(current, parsePatchCommand({ kind: 1, version: 3 }), undefined) as unknown as Resource;
    expect(kept.spec).toEqual(current.spec);
    expect(kept.metadata.annotations).toEqual({ 'svc.app/folder': 'f' });
    const moved = toPatchedElement(current, parsePatchCommand({ kind: 1, version: 3, name: 'New', model: { type: 'gauge' } }), '') as unknown as Resource;
    expect(moved.spec).toMatchObject({ name: 'New', model: { type: 'gauge' } });
    expect(moved.metadata.annotations).toEqual({});
  });

  it.each([
    [{}, 'bad request data'],
    [{ kind: 0, model: {} }, 'bad request data'],
    [{ kind: 9, model: {} }, 'the element kind is not supported'],
  ])('refuses %j', (body, message) => {
    expect(() => parseCreateCommand(body)).toThrow(message);
  });
});

describe('search', () => {
  const q = (query: Record<string, string>): ElementSearch => parseElementSearch(query);

  it('reads the query as the anchor does', () => {
    expect(q({})).toEqual({ searchString: '', kind: undefined, order: 'asc', types: [], excludeUid: undefined, folderUids: undefined, folderIds: undefined, perPage: 100, page: 1 });
    expect(q({ kind: '3', sortDirection: 'alpha-desc', typeFilter: 'a, b', folderFilterUIDs: 'general,f', perPage: '0', page: 'x' })).toMatchObject({
      kind: undefined,
      order: 'desc',
      types: ['a', 'b'],
      folderUids: ['', 'f'],
      perPage: 100,
      page: 1,
    });
    expect(q({ folderFilter: '0,12,x' }).folderIds).toEqual([0, 12]);
    expect(() => q({ folderFilter: '1', folderFilterUIDs: 'f' })).toThrow('cannot pass both folderFilter and folderFilterUIDs');
  });

  it('asks the registry for the page: filters, name order (reversed for alpha-desc), offset and limit', () => {
    expect(elementPage(q({}))).toEqual({ where: {}, orderBy: ['name'], descending: false, offset: 0, limit: 100 });
    expect(elementPage({ ...q({ searchString: 'needle', sortDirection: 'alpha-desc', perPage: '2', page: '3', kind: '2', typeFilter: 'table,stat', excludeUid: 'b' }), folderUids: ['', 'f'] })).toEqual({
      query: { text: 'needle', fields: ['name', 'description'] },
      where: { kind: 2, type: ['table', 'stat'] },
      excludeNames: ['b'],
      folders: ['', 'f'],
      orderBy: ['name'],
      descending: true,
      offset: 4,
      limit: 2,
    });
  });
});

describe('records and errors', () => {
  it('the DTO carries the numeric id, the generation as version and the folder', () => {
    const user = { id: 1, name: 'admin', avatarUrl: '/avatar/x' };
    const dto = toElementDTO(element('cpu', {}, 'f'), { orgId: 1, folder: { id: 4, uid: 'f', title: 'F' }, connectedDashboards: 2, createdBy: user, updatedBy: user });
    expect(dto).toMatchObject({ id: 7, uid: 'cpu', version: 3, folderId: 4, folderUid: 'f', meta: { folderName: 'F', connectedDashboards: 2, created: '2026-01-01T00:00:00Z' } });
  });

  it("words the registry's errors as the anchor", () => {
    const gr = { group: 'dashboard.svc.app', resource: 'librarypanels' };
    const shape = (e: unknown) => [(e as StatusError).code, (e as StatusError).message];
    expect(shape(legacyError(libraryElementErrors, StatusError.notFound(gr, 'x')))).toEqual([404, 'library element could not be found']);
    expect(shape(legacyError(libraryElementErrors, StatusError.alreadyExists(gr, 'x')))).toEqual([400, 'library element with that name or UID already exists']);
    expect(shape(legacyError(libraryElementErrors, StatusError.conflict(gr, 'x')))).toEqual([412, 'the library element has been changed by someone else']);
  });
});
