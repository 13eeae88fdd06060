import { PREPARED } from './prepared';

/**
 * What a database written by this process alone (the embedded one) tells of its writes: `mark()` before a read, and
 * `unchangedSince(mark)` after, true when no statement that may write ran or was running in between.
 */
export interface SoleWriter {
  mark(): number;
  unchangedSince(mark: number): boolean;
}

/**
 * Counts the statements that may write, at their start and at their end, with `query` running each (PGlite's query,
 * which every statement of the embedded database goes through): a read of `SELECT` alone writes nothing, anything
 * else (a data-modifying WITH, BEGIN, COMMIT, DDL) counts, so a read overlapping a write or a commit never passes for
 * unchanged.
 *
 * @example const writer = soleWriter(); pg.query = writer.watch(pg.query.bind(pg));
 */
export function soleWriter(): SoleWriter & { watch<A extends unknown[], R>(query: (sql: string, ...rest: A) => Promise<R>): (sql: string, ...rest: A) => Promise<R> } {
  let moves = 0;
  let running = 0;
  return {
    mark: () => moves,
    unchangedSince: (mark) => mark === moves && running === 0,
    watch: (query) => async (text, ...rest) => {
      if (isPlainRead(text)) return query(text, ...rest);
      moves++;
      running++;
      try {
        return await query(text, ...rest);
      } finally {
        running--;
        moves++;
      }
    },
  };
}

/** A statement that is a SELECT alone (after the prepared marker and blanks), which changes nothing stored. */
function isPlainRead(text: string): boolean {
  const start = text.startsWith(PREPARED) ? PREPARED.length : 0;
  return /^\s*select\b/i.test(text.slice(start, start + 16));
}
