import type { IncomingMessage } from 'node:http';

/**
 * Calls `each` with every line of a streamed JSON-lines answer (a watch) as it arrives; `each` sees a line only
 * once it is whole.
 *
 * @example http.get(url, (res) => onJsonLines<WatchLine>(res, (line) => lines.push(line)));
 */
export function onJsonLines<T>(res: IncomingMessage, each: (value: T) => void): void {
  let buf = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    buf += chunk;
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      each(JSON.parse(buf.slice(0, nl)) as T);
      buf = buf.slice(nl + 1);
    }
  });
}
