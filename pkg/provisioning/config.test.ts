import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { planProviders } from './dashboards-config';
import { ONE_DEFAULT, planDataSources, safeUidFromName } from './datasources-config';
import { ProvisioningError } from './provisioning-error';
import { readYamlFiles } from './read-files';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prov-unit-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);
const sources = { env: { PROM_URL: 'http://prom:9090', TOKEN: 'tok' } };
const dataSources = () => planDataSources(readYamlFiles(dir), sources);
const failure = (fn: () => unknown): ProvisioningError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ProvisioningError) return err;
    throw err;
  }
  throw new Error('expected a ProvisioningError');
};

describe('data source files', () => {
  it('reads the anchor\'s format with defaults, interpolation and the deterministic uid', () => {
    write('a.yaml', 'apiVersion: 1\nprune: true\ndeleteDatasources:\n  - name: Old\ndatasources:\n  - name: Prom\n    type: prometheus\n    url: $PROM_URL\n    isDefault: true\n    secureJsonData:\n      token: ${TOKEN}\n');
    const plan = dataSources();
    expect(plan.prune).toBe(true);
    expect(plan.deletes).toEqual([{ name: 'Old', orgId: 1, file: path.join(dir, 'a.yaml') }]);
    expect(plan.upserts[0]).toMatchObject({ name: 'Prom', type: 'prometheus', access: 'proxy', orgId: 1, url: 'http://prom:9090', isDefault: true, editable: false, secureJsonData: { token: 'tok' }, uid: safeUidFromName('Prom') });
    expect(safeUidFromName('Prom')).toMatch(/^P[0-9A-F]{16}$/);
  });

  it('skips empty files and other extensions; a missing folder holds none', () => {
    write('empty.yaml', '');
    write('notes.txt', 'datasources: [');
    expect(dataSources().upserts).toEqual([]);
    expect(readYamlFiles(path.join(dir, 'missing'))).toEqual([]);
  });

  it.each([
    ['datasources:\n  - type: prometheus\n', 'datasources[0].name: required'],
    ['datasources:\n  - name: X\n', 'datasources[0].type: required'],
    ['datasources:\n  - name: X\n    type: t\n    access: sideways\n', 'datasources[0].access:'],
    ['datasources:\n  - name: X\n    type: t\n    uid: "a b"\n', 'datasources[0].uid: Invalid value'],
    ['datasources:\n  - name: X\n    type: t\n    orgId: one\n', 'datasources[0].orgId:'],
    ['datasources:\n  - name: X\n    type: t\n    url: "$__file{/does/not/exist}"\n', "datasources[0].url: failed to interpolate value '$__file{/does/not/exist}'"],
    ['apiVersion: 7\n', 'apiVersion:'],
    ['datasources:\n  - name: X\n    type: prometheus\n    url: "not a url"\n', 'datasources[0].url: Validation error, invalid URL'],
    ['datasources: [\n', 'invalid YAML'],
  ])('%j is an error naming the file and %s', (text, field) => {
    write('bad.yaml', text);
    const err = failure(dataSources);
    expect(err.message.startsWith(`${path.join(dir, 'bad.yaml')}: `)).toBe(true);
    expect(err.message).toContain(field);
  });

  it('one default per organization across files', () => {
    write('a.yaml', 'datasources:\n  - {name: A, type: t, isDefault: true}\n  - {name: C, type: t, isDefault: true, orgId: 2}\n');
    write('b.yaml', 'datasources:\n  - {name: B, type: t, isDefault: true}\n');
    expect(failure(dataSources).message).toBe(`${path.join(dir, 'b.yaml')}: datasources[0].isDefault: ${ONE_DEFAULT}`);
  });
});

describe('dashboard providers', () => {
  const providers = () => planProviders(readYamlFiles(dir), sources, '/srv');

  it('reads a provider with the anchor\'s defaults; relative paths from the working directory', () => {
    write('p.yaml', 'apiVersion: 1\nproviders:\n  - name: main\n    options:\n      path: dashboards\n');
    expect(providers()[0]).toMatchObject({ name: 'main', orgId: 1, folder: '', folderUid: '', type: 'file', disableDeletion: false, updateIntervalSeconds: 10, allowUiUpdates: false, options: { path: '/srv/dashboards', foldersFromFilesStructure: false } });
  });

  it.each([
    ['providers:\n  - name: a\n', 'providers[0].options: required'],
    ['providers:\n  - name: a\n    options: {}\n', 'providers[0].options.path: required'],
    ['providers:\n  - name: a\n    type: git\n    options: {path: /x}\n', "providers[0].type: only providers of type 'file' are supported"],
    ['providers:\n  - name: a\n    folder: F\n    options: {path: /x, foldersFromFilesStructure: true}\n', 'providers[0].options.foldersFromFilesStructure:'],
    ['providers:\n  - {name: a, options: {path: /x}}\n  - {name: a, options: {path: /y}}\n', 'providers[1].name: provider name "a" is used more than once'],
  ])('%j is an error naming %s', (text, field) => {
    write('bad.yaml', text);
    expect(failure(providers).message).toContain(`bad.yaml: ${field}`);
  });
});
