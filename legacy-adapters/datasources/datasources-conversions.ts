import { z } from 'zod';
import type { DataSourceSpec } from '../../apis/datasource.svc.app/v1beta1/datasource';
import { StatusError } from '../../pkg/errors';
import { Labels, type Resource } from '../../pkg/meta';

/** The plugins the list and records name and show (the anchor reads them from installed plugins). */
const PLUGINS: Readonly<Record<string, { name: string; logo: string }>> = {
  prometheus: { name: 'Prometheus', logo: 'public/app/plugins/datasource/prometheus/img/prometheus_logo.svg' },
  loki: { name: 'Loki', logo: 'public/app/plugins/datasource/loki/img/loki_icon.svg' },
  'svc-postgresql-datasource': { name: 'PostgreSQL', logo: 'public/app/plugins/datasource/svc-postgresql-datasource/img/postgresql_logo.svg' },
  'svc-testdata-datasource': { name: 'TestData', logo: 'public/app/plugins/datasource/svc-testdata-datasource/img/testdata.svg' },
};
/** The list's logo for a plugin it does not know. */
const UNKNOWN_LOGO = 'public/img/icn-datasource.svg';

/** The anchor's record of one data source (GET by uid, and `datasource` of POST and PUT answers). */
export interface DataSourceDTO {
  id: number;
  uid: string;
  orgId: number;
  name: string;
  type: string;
  typeLogoUrl: string;
  access: string;
  url: string;
  password: string;
  user: string;
  database: string;
  basicAuth: boolean;
  basicAuthUser: string;
  basicAuthPassword: string;
  withCredentials: boolean;
  isDefault: boolean;
  jsonData?: Record<string, unknown>;
  secureJsonFields: Record<string, boolean>;
  version: number;
  readOnly: boolean;
  accessControl?: Record<string, boolean>;
}

/** One item of `GET /api/datasources`. */
export interface DataSourceListItemDTO {
  id: number;
  uid: string;
  orgId: number;
  name: string;
  type: string;
  typeName: string;
  typeLogoUrl: string;
  access: string;
  url: string;
  user: string;
  database: string;
  basicAuth: boolean;
  isDefault: boolean;
  jsonData: Record<string, unknown> | null;
  readOnly: boolean;
}

export type DataSourceObject = Resource<DataSourceSpec>;

/** The data source's legacy numeric id. */
export const idOf = (obj: Resource<unknown>): number => Number(obj.metadata.labels?.[Labels.deprecatedInternalID] ?? 0);

/**
 * The keys of stored secrets, as the registry reports them (`spec.secureJsonFields`, never the values); secrets a
 * registry without encryption would still show are reduced to their keys here too.
 */
function secureFieldsOf(spec: DataSourceSpec): Record<string, boolean> {
  if (spec.secureJsonFields) return Object.fromEntries(Object.entries(spec.secureJsonFields).filter(([, set]) => set));
  return Object.fromEntries(Object.entries(spec.secureJsonData ?? {}).filter(([, v]) => v !== '').map(([k]) => [k, true]));
}

/**
 * A stored data source as the anchor's record: secrets as `secureJsonFields` only, `password` and
 * `basicAuthPassword` empty, `version` the object's generation.
 *
 * @example toDataSourceDTO(obj, 1).secureJsonFields; // { basicAuthPassword: true }
 */
export function toDataSourceDTO(obj: DataSourceObject, orgId: number): DataSourceDTO {
  const s = obj.spec;
  return {
    id: idOf(obj),
    uid: obj.metadata.name,
    orgId,
    name: s.name,
    type: s.type,
    typeLogoUrl: PLUGINS[s.type]?.logo ?? '',
    access: s.access,
    url: s.url,
    password: '',
    user: s.user,
    database: s.database,
    basicAuth: s.basicAuth,
    basicAuthUser: s.basicAuthUser,
    basicAuthPassword: '',
    withCredentials: s.withCredentials,
    isDefault: s.isDefault,
    ...(s.jsonData ? { jsonData: s.jsonData } : {}),
    secureJsonFields: secureFieldsOf(s),
    version: obj.metadata.generation,
    readOnly: s.readOnly,
  };
}

/** A stored data source as an item of the anchor's list. */
export function toListItem(obj: DataSourceObject, orgId: number): DataSourceListItemDTO {
  const s = obj.spec;
  const plugin = PLUGINS[s.type];
  return {
    id: idOf(obj),
    uid: obj.metadata.name,
    orgId,
    name: s.name,
    type: s.type,
    typeName: plugin?.name ?? '',
    typeLogoUrl: plugin?.logo ?? UNKNOWN_LOGO,
    access: s.access,
    url: s.url,
    user: s.user,
    database: s.database,
    basicAuth: s.basicAuth,
    isDefault: s.isDefault,
    jsonData: s.jsonData ?? null,
    readOnly: s.readOnly,
  };
}

/** The list's order: by name, case folded (then as stored). */
export const byName = (a: DataSourceObject, b: DataSourceObject): number => {
  const [x, y] = [a.spec.name.toLowerCase(), b.spec.name.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : a.spec.name < b.spec.name ? -1 : a.spec.name > b.spec.name ? 1 : 0;
};

const text = z.string().optional();
const flag = z.boolean().optional();
/** The anchor's AddDataSourceCommand and UpdateDataSourceCommand; fields of its record (`typeLogoUrl`...) may come back. */
const commandSchema = z.looseObject({
  name: text,
  type: text,
  access: text,
  url: text,
  user: text,
  database: text,
  password: text,
  basicAuth: flag,
  basicAuthUser: text,
  basicAuthPassword: text,
  withCredentials: flag,
  isDefault: flag,
  jsonData: z.record(z.string(), z.unknown()).nullish(),
  secureJsonData: z.record(z.string(), z.string()).nullish(),
  uid: text,
  version: z.number().int().nonnegative().optional(),
});

export type DataSourceCommand = z.infer<typeof commandSchema>;

const badRequest = () => StatusError.badRequest('bad request data');

/**
 * The body of `POST /api/datasources` (`required`: type and access) or of a PUT (name, type and access), as the
 * anchor binds it: a wrong type or a missing required field is 400 "bad request data".
 *
 * @example parseDataSourceCommand({ type: 'prometheus', access: 'proxy' }, ['type', 'access']); // { type: 'prometheus', access: 'proxy' }
 */
export function parseDataSourceCommand(body: unknown, required: readonly ('name' | 'type' | 'access')[]): DataSourceCommand {
  const parsed = commandSchema.safeParse(body);
  if (!parsed.success) throw badRequest();
  if (required.some((f) => !parsed.data[f])) throw badRequest();
  return parsed.data;
}

/**
 * The spec a command writes: its fields, absent ones at their defaults (a PUT replaces the whole record), and the
 * legacy `password` and `basicAuthPassword` as the secure keys the anchor moved them to. Secure keys the command
 * omits are the registry's to keep.
 *
 * @example specOf({ name: 'p', type: 'prometheus', access: 'proxy', basicAuthPassword: 's' }).secureJsonData; // { basicAuthPassword: 's' }
 */
export function specOf(cmd: DataSourceCommand, name = cmd.name ?? ''): Record<string, unknown> {
  const secure: Record<string, string> = { ...(cmd.secureJsonData ?? {}) };
  if (cmd.password && secure.password === undefined) secure.password = cmd.password;
  if (cmd.basicAuthPassword && secure.basicAuthPassword === undefined) secure.basicAuthPassword = cmd.basicAuthPassword;
  return {
    name,
    type: cmd.type,
    access: cmd.access,
    url: cmd.url ?? '',
    user: cmd.user ?? '',
    database: cmd.database ?? '',
    basicAuth: cmd.basicAuth ?? false,
    basicAuthUser: cmd.basicAuthUser ?? '',
    withCredentials: cmd.withCredentials ?? false,
    isDefault: cmd.isDefault ?? false,
    jsonData: cmd.jsonData ?? null,
    ...(Object.keys(secure).length ? { secureJsonData: secure } : {}),
  };
}

/**
 * The name the anchor gives a data source created without one: its type, else `<type>-1`, `<type>-2`... the first
 * no other data source of the organization has (any case).
 *
 * @example freeName('prometheus', ['Prometheus', 'prometheus-1']); // 'prometheus-2'
 */
export function freeName(type: string, taken: readonly string[]): string {
  const used = new Set(taken.map((n) => n.toLowerCase()));
  if (!used.has(type.toLowerCase())) return type;
  for (let i = 1; ; i++) if (!used.has(`${type}-${i}`.toLowerCase())) return `${type}-${i}`;
}
