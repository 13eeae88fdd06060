import type { Request, Response } from 'express';
import { jsonPieces, sendPieces } from './send-json';

/**
 * An answer larger than this (or than an eighth of the whole) is not kept: a page of thousands of objects would push
 * out many others.
 */
const MAX_ANSWER_BYTES = 4 * 2 ** 20;

interface Answer {
  url: string;
  /** The label of the stored data it was computed from (ScopedReads.stamp). */
  stamp: string;
  pieces: Buffer[];
  bytes: number;
}

/** What an answer depends on besides the stored data and the URL: who asks, in which organization, with which role. */
function callerOf(user: NonNullable<Request['user']>): string {
  return `${user.identity}\u0000${user.orgId}\u0000${user.orgRole ?? ''}\u0000${user.isServerAdmin ? 1 : 0}`;
}

/**
 * The JSON answers of reads (a GET of an object or of a list under /apis), kept as the bytes sent and sent again
 * while nothing stored has changed: an answer is a function of the stored data, the URL and the caller (its
 * permissions are stored data too), so it is kept under the caller, the URL and the label of the stored data the
 * request's read scope read (`stamp`: every type's version, in the request's one versions statement). Any write, on
 * any replica, changes the label the next request reads, so no answer outlives the data it shows, and a revoked
 * permission or token takes effect at the next request as before (authentication runs first, every time). A repeated
 * page of 100 dashboards is then one statement and a copy of bytes, not a query of 100 rows, their JSON parsed and
 * stringified again. Only what is the same for every request of the same URL is kept: no Table (its ages move with
 * the clock), no watch.
 *
 * @example
 *   const answers = new AnswerCache(() => storage.stamp(), { maxBytes: 32 * 2 ** 20 });
 *   router.get(path, (req, res) => answers.send(req, res, () => registry.list(ctx, kind, opts)));
 */
export class AnswerCache {
  private readonly answers = new Map<string, Answer>();
  /** How many answers each URL has (for {@link holds}). */
  private readonly urls = new Map<string, number>();
  private bytes = 0;

  private readonly limits: { maxBytes: number; maxAnswerBytes: number };
  private readonly onSend: (kept: boolean) => void;

  /**
   * `maxBytes`: the answers kept at most (`[registry] answer_cache_mb`); the least recently sent go first. `onSend`
   * is told of each answer whether it was kept (metrics).
   */
  constructor(
    private readonly stamp: () => Promise<string | undefined>,
    opts: { maxBytes: number; maxAnswerBytes?: number; onSend?: (kept: boolean) => void },
  ) {
    this.limits = { maxBytes: opts.maxBytes, maxAnswerBytes: opts.maxAnswerBytes ?? Math.min(MAX_ANSWER_BYTES, opts.maxBytes / 8) };
    this.onSend = opts.onSend ?? (() => undefined);
  }

  /** Sends the kept answer of this caller and URL if the data it was computed from is the data now, else `compute`'s. */
  async send(req: Request, res: Response, compute: () => Promise<unknown>): Promise<void> {
    // The label first: what `compute` reads after it is at least as new, so an answer is never older than its label.
    const stamp = req.user ? await this.stamp() : undefined;
    const url = req.originalUrl;
    const key = stamp === undefined ? undefined : `${callerOf(req.user!)}\u0000${url}`;
    const kept = key === undefined ? undefined : this.answers.get(key);
    if (kept && kept.stamp === stamp) {
      // The most recently sent last: eviction takes from the front.
      this.answers.delete(key!);
      this.answers.set(key!, kept);
      this.onSend(true);
      sendPieces(res, kept.pieces);
      return;
    }
    const pieces = jsonPieces(await compute());
    // Its key counts too (two bytes a character): many tiny answers of long URLs must not outgrow the limit.
    if (key !== undefined) this.keep(key, { url, stamp: stamp!, pieces, bytes: pieces.reduce((n, p) => n + p.length, 2 * key.length) });
    this.onSend(false);
    sendPieces(res, pieces);
  }

  /**
   * Whether some caller's answer to `url` is kept (of any stored data): a read scope skips reading the object ahead
   * with the versions when its answer is likely to be sent again without it (pkg/server/read-scope.ts).
   */
  holds(url: string): boolean {
    return this.urls.has(url);
  }

  /** What is kept: answers and bytes (for tests and metrics). */
  stats(): { answers: number; bytes: number } {
    return { answers: this.answers.size, bytes: this.bytes };
  }

  private keep(key: string, answer: Answer): void {
    this.drop(key);
    if (answer.bytes > this.limits.maxAnswerBytes) return;
    for (const k of this.answers.keys()) {
      if (this.bytes + answer.bytes <= this.limits.maxBytes) break;
      this.drop(k);
    }
    this.answers.set(key, answer);
    this.bytes += answer.bytes;
    this.urls.set(answer.url, (this.urls.get(answer.url) ?? 0) + 1);
  }

  private drop(key: string): void {
    const answer = this.answers.get(key);
    if (!answer) return;
    this.answers.delete(key);
    this.bytes -= answer.bytes;
    const n = this.urls.get(answer.url)! - 1;
    if (n === 0) this.urls.delete(answer.url);
    else this.urls.set(answer.url, n);
  }
}
