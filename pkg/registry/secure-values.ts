import type { StatusCause } from '../errors';
import type { JsonObject, KindRegistration, Resource } from '../meta';
import { LAST_APPLIED } from './apply';

/**
 * What the registry needs of the encryption at rest of kinds' `secureValues` (pkg/secrets' SecretsService is one),
 * given through {@link RegistryOptions.secrets} by the server's composition.
 */
export interface SecureValueCipher {
  /**
   * A synchronous encrypter bound to the active data key, loaded before a write's transaction (inside it the store
   * of keys cannot be read).
   */
  sealer(): Promise<(plaintext: string) => string>;
  decrypt(ciphertext: string): Promise<string>;
}

/** Encrypts one value for storage (see {@link SecureValueCipher.sealer}). */
export type Seal = (plaintext: string) => string;

/*
 * Where the values live: encrypted, in the stored object itself, at the declared path (`spec.secureJsonData:
 * {password: '#<data key id>#…'}`), so they commit with the object and need no table of their own. History records
 * each key with '' in place of its ciphertext (see historyValueOf): older versions, watch events and later list
 * pages know which keys were set, never a value, and no old ciphertext outlives a re-encryption. No answer carries
 * the map (presentSecureValues).
 */

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function getAt(root: unknown, path: string): unknown {
  let at = root;
  for (const step of path.split('.')) at = isObject(at) ? at[step] : undefined;
  return at;
}

/** Sets (or with undefined removes) the value at `path` in `root`, copying each object along the path (the objects of a stored row may be shared). */
function setAt(root: Record<string, unknown>, path: string, value: unknown): void {
  const steps = path.split('.');
  let at = root;
  for (const step of steps.slice(0, -1)) {
    const next = at[step];
    if (!isObject(next)) {
      if (value === undefined) return;
      at[step] = {};
    } else at[step] = { ...next };
    at = at[step] as Record<string, unknown>;
  }
  if (value === undefined) delete at[steps[steps.length - 1]!];
  else at[steps[steps.length - 1]!] = value;
}

/** The stored (encrypted) map at a declared path: `{}` when there is none. */
export function storedSecureMap(obj: unknown, path: string): Record<string, string> {
  const v = getAt(obj, path);
  return isObject(v) ? Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};
}

/** A write's input: the `reportAs` maps are answers only, never input (a client echoing `secureJsonFields` back). */
export function dropReported(kind: KindRegistration, obj: Resource): void {
  for (const sv of kind.secureValues ?? []) setAt(obj as unknown as Record<string, unknown>, sv.reportAs, undefined);
}

/** Field causes for a secure map that is not an object of strings. */
export function secureValueCauses(kind: KindRegistration, obj: Resource): StatusCause[] {
  const causes: StatusCause[] = [];
  for (const { path } of kind.secureValues ?? []) {
    const given = getAt(obj, path);
    if (given === undefined || given === null) continue;
    if (!isObject(given)) {
      causes.push({ field: path, message: 'Invalid value: must be an object of strings' });
      continue;
    }
    for (const [key, value] of Object.entries(given)) {
      // The value is not shown: it may be the secret, mistyped.
      if (typeof value !== 'string') causes.push({ field: `${path}.${key}`, message: 'Invalid value: must be a string' });
    }
  }
  return causes;
}

/**
 * Turns a valid write's clear secure maps into what is stored: each non-empty value encrypted, a key sent as ''
 * removed, and on an update (`current` the stored object) every key the body omits kept as stored. A map left
 * empty is removed.
 *
 * @example sealSecureValues(kind, obj, stored, seal) // obj.spec.secureJsonData: { password: '#k#…', token: '#k#…' (kept) }
 */
export function sealSecureValues(kind: KindRegistration, obj: Resource, current: Resource | undefined, seal: Seal | undefined): void {
  scrubLastApplied(kind, obj);
  for (const { path } of kind.secureValues ?? []) {
    const given = getAt(obj, path);
    const result = current ? storedSecureMap(current, path) : {};
    for (const [key, value] of Object.entries(isObject(given) ? given : {})) {
      if (value === '') delete result[key];
      else if (typeof value === 'string') {
        if (!seal) throw new Error(`${kind.kind} ${path}: a secure value cannot be stored, the registry has no encryption (RegistryOptions.secrets)`);
        result[key] = seal(value);
      }
    }
    setAt(obj as unknown as Record<string, unknown>, path, Object.keys(result).length ? result : undefined);
  }
}

/**
 * Removes each secure map (and secret field) from the object's {@link LAST_APPLIED} annotation: kubectl writes there
 * the manifest it applied, secrets included, and left there they would go out in every answer and watch event and
 * be recorded in history. kubectl's next apply then finds no value it applied before and sends the values again,
 * as at a first apply; they are write-only, so nothing else changes.
 *
 * @example // annotation '{"spec":{"url":"u","secureJsonData":{"password":"p"}}}\n' becomes '{"spec":{"url":"u"}}\n'
 */
export function scrubLastApplied(kind: KindRegistration, obj: Resource): void {
  const paths = [...(kind.secureValues ?? []).map((v) => v.path), ...(kind.secretFields ?? [])];
  const text = obj.metadata.annotations?.[LAST_APPLIED];
  if (!paths.length || typeof text !== 'string') return;
  let applied: unknown;
  try {
    applied = JSON.parse(text);
  } catch {
    return;
  }
  if (!isObject(applied)) return;
  const secrets = paths.filter((p) => getAt(applied, p) !== undefined);
  if (!secrets.length) return;
  for (const p of secrets) setAt(applied, p, undefined);
  obj.metadata.annotations = { ...obj.metadata.annotations, [LAST_APPLIED]: `${JSON.stringify(applied)}${text.endsWith('\n') ? '\n' : ''}` };
}

/** An object on its way out: each secure map removed, its `reportAs` map `{key: true}` for each key that holds a value. */
export function presentSecureValues(kind: KindRegistration, obj: Resource): void {
  for (const { path, reportAs } of kind.secureValues ?? []) {
    const keys = Object.keys(storedSecureMap(obj, path));
    setAt(obj as unknown as Record<string, unknown>, path, undefined);
    setAt(obj as unknown as Record<string, unknown>, reportAs, Object.fromEntries(keys.map((k) => [k, true])));
  }
}

/** What history records of a secure map: its keys, each with '' for its value. Mutates `value` (a copy). */
export function markSecureValues(kind: KindRegistration, value: JsonObject): void {
  for (const { path } of kind.secureValues ?? []) {
    const keys = Object.keys(storedSecureMap(value, path));
    if (getAt(value, path) !== undefined) setAt(value as Record<string, unknown>, path, Object.fromEntries(keys.map((k) => [k, ''])));
  }
}

/** Each stored map of an object with every value passed through `recrypt`; undefined when none changed. */
export async function recryptedValue(kind: KindRegistration, value: JsonObject, recrypt: (ciphertext: string) => Promise<string>): Promise<{ value: JsonObject; rewritten: number } | undefined> {
  const out = structuredClone(value);
  let rewritten = 0;
  for (const { path } of kind.secureValues ?? []) {
    const map = storedSecureMap(value, path);
    for (const [key, ciphertext] of Object.entries(map)) {
      const next = await recrypt(ciphertext);
      if (next !== ciphertext) {
        map[key] = next;
        rewritten++;
      }
    }
    if (Object.keys(map).length) setAt(out as Record<string, unknown>, path, map);
  }
  return rewritten ? { value: out, rewritten } : undefined;
}
