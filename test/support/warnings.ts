import type { Response } from 'supertest';

/** The texts of the response's Warning headers, one per header as kube sends them. */
export function warnings(res: Response): string[] {
  const raw = (res as unknown as { res: { rawHeaders: string[] } }).res.rawHeaders;
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].toLowerCase() !== 'warning') continue;
    const m = /^299 - "(.*)"$/.exec(Buffer.from(raw[i + 1], 'latin1').toString('utf8'));
    out.push(m ? m[1].replace(/\\(.)/g, '$1') : raw[i + 1]);
  }
  return out;
}
