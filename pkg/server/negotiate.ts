import type { Request } from 'express';
import { StatusError } from '../errors';

/**
 * Content negotiation for `/apis`, as kube-apiserver does it: the Accept header is a list of media ranges with
 * parameters and q-values; the first range (by q, then specificity, then order) that names a representation
 * the server can produce wins. `as`/`g`/`v` ask for a conversion (`as=Table;g=meta.k8s.io;v=v1`); a range whose
 * conversion the server cannot do is skipped, and when none is left the answer is 406 NotAcceptable.
 */

/** One media range of an Accept header. Parameter names are lower-cased; values keep their case. */
export interface MediaRange {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
}

/** The media type of a Table response, as kube-apiserver writes it in Content-Type. */
export const TABLE_CONTENT_TYPE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export type Negotiated = { kind: 'json' } | { kind: 'table'; includeObject: IncludeObject };

/** Splits on `sep` outside double quotes. */
function splitOutsideQuotes(s: string, sep: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '"') quoted = !quoted;
    else if (c === '\\' && quoted && i + 1 < s.length) {
      current += c + s[++i];
      continue;
    }
    if (c === sep && !quoted) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts;
}

function unquote(v: string): string {
  return v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1).replace(/\\(.)/g, '$1') : v;
}

/**
 * Parses an Accept header into media ranges, best first: by q (ranges with q=0 are dropped), then concrete
 * types before wildcards, then in the order written. An absent or empty header is `*\/*`. Malformed ranges
 * are skipped, as goautoneg does.
 *
 * @example
 *   parseAccept('application/json;as=Table;v=v1;g=meta.k8s.io, application/json;q=0.5')
 *   // [{type:'application', subtype:'json', params:{as:'Table', v:'v1', g:'meta.k8s.io'}, q:1}, {..., q:0.5}]
 */
export function parseAccept(header: string | undefined): MediaRange[] {
  if (header === undefined || header.trim() === '') return [{ type: '*', subtype: '*', params: {}, q: 1 }];
  const ranges: { range: MediaRange; index: number }[] = [];
  splitOutsideQuotes(header, ',').forEach((raw, index) => {
    const [mediaType, ...rawParams] = splitOutsideQuotes(raw, ';').map((p) => p.trim());
    const slash = mediaType.indexOf('/');
    if (slash <= 0 || slash === mediaType.length - 1) return;
    const type = mediaType.slice(0, slash).toLowerCase();
    const subtype = mediaType.slice(slash + 1).toLowerCase();
    if (type === '*' && subtype !== '*') return;
    const params: Record<string, string> = {};
    let q = 1;
    for (const p of rawParams) {
      const eq = p.indexOf('=');
      if (eq <= 0) continue;
      const name = p.slice(0, eq).trim().toLowerCase();
      const value = unquote(p.slice(eq + 1).trim());
      if (name === 'q') {
        const n = Number(value);
        q = Number.isFinite(n) ? Math.min(Math.max(n, 0), 1) : 1;
      } else params[name] = value;
    }
    if (q > 0) ranges.push({ range: { type, subtype, params, q }, index });
  });
  const specificity = (r: MediaRange) => (r.type === '*' ? 0 : r.subtype === '*' ? 1 : 2);
  ranges.sort((a, b) => b.range.q - a.range.q || specificity(b.range) - specificity(a.range) || a.index - b.index);
  return ranges.map((r) => r.range);
}

/** A representation the server can produce: a concrete media type and the conversion parameters it carries. */
export interface Offer<T> {
  type: string;
  subtype: string;
  /** `as`, `g`, `v` of a conversion; absent for the plain representation. */
  convert?: { as: string; g: string; v: string };
  value: T;
}

/** Parameters that do not change the representation (`charset` of JSON is always utf-8; `pretty` is cosmetic). */
const NEUTRAL_PARAMS = new Set(['charset', 'pretty', 'stream']);

function rangeMatches<T>(range: MediaRange, offer: Offer<T>): boolean {
  if (range.type !== '*' && range.type !== offer.type) return false;
  if (range.subtype !== '*' && range.subtype !== offer.subtype) return false;
  const { as, g, v, ...rest } = range.params;
  if (Object.keys(rest).some((k) => !NEUTRAL_PARAMS.has(k))) return false;
  if (as === undefined && g === undefined && v === undefined) return offer.convert === undefined;
  return offer.convert !== undefined && offer.convert.as === as && offer.convert.g === g && offer.convert.v === v;
}

/**
 * The first offer the Accept header allows, or undefined when it allows none.
 *
 * @example
 *   pickOffer('application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json', offers) // the plain JSON offer
 */
export function pickOffer<T>(header: string | undefined, offers: readonly Offer<T>[]): Offer<T> | undefined {
  for (const range of parseAccept(header)) {
    const offer = offers.find((o) => rangeMatches(range, o));
    if (offer) return offer;
  }
  return undefined;
}

/** The Accept header's media types this server produces, for 406 messages. */
export function describeOffers(offers: readonly Offer<unknown>[]): string {
  return offers.map((o) => `${o.type}/${o.subtype}${o.convert ? `;as=${o.convert.as};v=${o.convert.v};g=${o.convert.g}` : ''}`).join(', ');
}

export function notAcceptable(offers: readonly Offer<unknown>[]): StatusError {
  return StatusError.notAcceptable(`only the following media types are accepted: ${describeOffers(offers)}`);
}

const RESOURCE_OFFERS: readonly Offer<'json' | 'table'>[] = [
  { type: 'application', subtype: 'json', value: 'json' },
  { type: 'application', subtype: 'json', convert: { as: 'Table', g: 'meta.k8s.io', v: 'v1' }, value: 'table' },
];

const INCLUDE_OBJECT: readonly IncludeObject[] = ['None', 'Metadata', 'Object'];

/**
 * What a GET of an object or a list answers: plain JSON, or a meta.k8s.io/v1 Table (with `?includeObject=`,
 * default Metadata). Throws 406 when the Accept header allows neither, 400 for an unknown includeObject.
 *
 * @example
 *   // kubectl get: Accept: application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json
 *   negotiate(req) // { kind: 'table', includeObject: 'Metadata' }
 */
export function negotiate(req: Request): Negotiated {
  const offer = pickOffer(req.get('accept'), RESOURCE_OFFERS);
  if (!offer) throw notAcceptable(RESOURCE_OFFERS);
  if (offer.value === 'json') return { kind: 'json' };
  const raw = req.query.includeObject;
  if (raw === undefined || raw === '') return { kind: 'table', includeObject: 'Metadata' };
  if (typeof raw !== 'string' || !(INCLUDE_OBJECT as readonly string[]).includes(raw)) {
    throw StatusError.badRequest(`unrecognized includeObject value: ${JSON.stringify(typeof raw === 'string' ? raw : String(raw))}`);
  }
  return { kind: 'table', includeObject: raw as IncludeObject };
}
