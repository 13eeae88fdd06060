// The server's figures, measured over HTTP as a client sees them: creates/s, gets/s, page latencies.
'use strict';
const { COLLECTION, SELECTOR, bodyOf } = require('./dashboards');
const { runConcurrent, runSequential } = require('./stats');

/** A fetch client for the server with basic auth; any non-2xx answer fails the run (figures of errors are no figures). */
function httpClient(baseUrl, user = 'admin', password = 'admin') {
  const headers = { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`, accept: 'application/json' };
  const call = async (method, path, body) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${json.message ?? JSON.stringify(json)}`);
    return json;
  };
  return { get: (path) => call('GET', path), post: (path, body) => call('POST', path, body) };
}

/**
 * The continue token of a page that ends at `lastName`, in the server's public form (pkg/registry/continue-token.ts):
 * base64url JSON {"v":"meta.k8s.io/v1","rv":<list rv>,"start":"<name>\u0000"}.
 */
const continueToken = (rv, lastName) => Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start: `${lastName}\u0000` })).toString('base64url');

/** Fails when the server's real token is not what continueToken() builds, so the spread tokens are real ones. */
function checkTokenShape(page) {
  const token = page.metadata.continue;
  const last = page.items[page.items.length - 1].metadata.name;
  const expected = continueToken(Number(page.metadata.resourceVersion), last);
  if (token !== expected) {
    throw new Error(`the server's continue token ${Buffer.from(token, 'base64url')} is not the expected ${Buffer.from(expected, 'base64url')}`);
  }
}

/** POST dashboards [from, to), `concurrency` in flight. */
function createOverHttp(http, from, to, concurrency) {
  return runConcurrent(to - from, concurrency, (k) => http.post(COLLECTION, bodyOf(from + k)));
}

/**
 * Measures the server at its current size. `names` are all names in the collection, `positions` the names after
 * which the spread next pages start (each with a full page after it).
 */
async function measureHttp(http, { names, positions, gets, concurrency, firstPages, walkPages }) {
  const gotten = await runConcurrent(gets, concurrency, () => http.get(`${COLLECTION}/${names[Math.floor(Math.random() * names.length)]}`));

  let first;
  const firstPage = await runSequential(firstPages, async () => {
    first = await http.get(`${COLLECTION}?limit=100`);
  });
  checkTokenShape(first);
  const rv = Number(first.metadata.resourceVersion);

  const nextPage = await runSequential(positions.length, (k) => http.get(`${COLLECTION}?limit=100&continue=${continueToken(rv, positions[k])}`));
  let selectorItems = 0;
  const selectorNextPage = await runSequential(positions.length, async (k) => {
    const page = await http.get(`${COLLECTION}?limit=100&labelSelector=${encodeURIComponent(SELECTOR)}&continue=${continueToken(rv, positions[k])}`);
    selectorItems += page.items.length;
  });

  // Walking real tokens from the first page, as a client listing everything does.
  let token = first.metadata.continue;
  const walked = await runSequential(Math.min(walkPages, Math.floor((names.length - 1) / 100)), async () => {
    const page = await http.get(`${COLLECTION}?limit=100&continue=${token}`);
    token = page.metadata.continue;
  });

  return { gets: gotten, firstPage, nextPage, selectorNextPage, selectorItemsPerPage: selectorItems / positions.length, walked, rv };
}

module.exports = { httpClient, continueToken, createOverHttp, measureHttp };
