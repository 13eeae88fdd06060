import { StatusError } from '../../pkg/errors';
import { evaluateTemplate, libraryPanelsOf, parseImportRequest } from './dashboards-import-conversions';

const message = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof StatusError ? [err.code, err.message] : String(err);
  }
  return undefined;
};

describe('evaluateTemplate', () => {
  const inputs = [{ name: 'DS_A', type: 'datasource', value: 'a-uid' }];
  it('replaces the declared placeholders everywhere, drops __inputs at every level, keeps the rest', () => {
    expect(evaluateTemplate({
      __inputs: [{ name: 'DS_A', type: 'datasource' }],
      title: '${DS_A} and ${other} and ${DS_A}',
      panels: [{ datasource: { uid: '${DS_A}' }, n: 1, b: true, z: null, __inputs: 'nested' }],
    }, inputs)).toEqual({ title: 'a-uid and ${other} and a-uid', panels: [{ datasource: { uid: 'a-uid' }, n: 1, b: true, z: null }] });
  });
  it('leaves undeclared placeholders alone and needs an input for every declared one (type and name or *)', () => {
    expect(evaluateTemplate({ title: '${DS_A}' }, inputs)).toEqual({ title: '${DS_A}' });
    expect(evaluateTemplate({ __inputs: [{ name: 'X', type: 'constant' }], t: '${X}' }, [{ name: '*', type: 'constant', value: 'v' }])).toEqual({ t: 'v' });
    expect(message(() => evaluateTemplate({ __inputs: [{ name: 'DS_B', type: 'datasource' }] }, inputs))).toEqual([400, 'Dashboard input variable: DS_B missing from import command']);
    expect(message(() => evaluateTemplate({ __inputs: [{ name: 'DS_A', type: 'constant' }] }, inputs))).toEqual([400, 'Dashboard input variable: DS_A missing from import command']);
  });
  it('keeps a key named __proto__ a key', () => {
    const out = evaluateTemplate(JSON.parse('{"__proto__": {"x": "${A}"}}'), []);
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });
});

describe('libraryPanelsOf', () => {
  it("finds the library panels of panels and rows' panels once each, with their __elements", () => {
    expect(libraryPanelsOf({
      panels: [{ libraryPanel: { uid: 'a' } }, { type: 'row', panels: [{ libraryPanel: { uid: 'b' } }, { libraryPanel: { uid: 'a' } }] }, { type: 'stat' }],
      __elements: { a: { name: 'A', kind: 2, model: { type: 'x' } } },
    })).toEqual([{ uid: 'a', element: { uid: 'a', name: 'A', kind: 2, model: { type: 'x' } } }, { uid: 'b' }]);
    expect(message(() => libraryPanelsOf({ panels: [{ libraryPanel: {} }] }))).toEqual([400, 'library panel header is missing required property uid']);
  });
});

describe('parseImportRequest', () => {
  it('binds the body as the anchor', () => {
    expect(message(() => parseImportRequest({}))).toEqual([422, 'Dashboard must be set']);
    expect(message(() => parseImportRequest({ dashboard: [] }))).toEqual([400, 'bad request data']);
    expect(parseImportRequest({ dashboard: { title: 'A' }, overwrite: true }).dashboard).toEqual({ title: 'A' });
  });
});
