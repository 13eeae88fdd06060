import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/** Runs `body` in a child node process with `batchedStderr` loaded as `b`; its stderr and the writes it made. */
function child(body: string): { stderr: string; status: number | null } {
  const script = `
    const { batchedStderr, createLogger } = require(${JSON.stringify(path.join(ROOT, 'pkg', 'log', 'index.ts'))});
    let writes = 0;
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = (chunk, ...rest) => { writes++; return write(chunk, ...rest); };
    const log = createLogger('info', batchedStderr());
    ${body}`;
  const r = spawnSync(process.execPath, ['-r', path.join(ROOT, 'test', 'support', 'ts-register.js'), '-e', script], { encoding: 'utf8' });
  return { stderr: r.stderr, status: r.status };
}

describe('batchedStderr', () => {
  it('writes the lines of one interval in one write, in order', () => {
    const r = child(`
      for (let i = 0; i < 20; i++) log.info('request', { i });
      setTimeout(() => { for (let i = 20; i < 50; i++) log.info('request', { i }); }, 5);
      setTimeout(() => write('writes=' + writes + '\\n'), 200);`);
    const lines = r.stderr.trim().split('\n');
    expect(lines.pop()).toBe('writes=1');
    expect(lines.map((l) => JSON.parse(l).i)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('writes the lines of later intervals in later writes', () => {
    const r = child(`
      log.info('a');
      setTimeout(() => { log.info('b'); log.info('c'); setTimeout(() => write('writes=' + writes + '\\n'), 200); }, 200);`);
    const lines = r.stderr.trim().split('\n');
    expect(lines.pop()).toBe('writes=2');
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['a', 'b', 'c']);
  });

  it('writes at once what passes 64 KB', () => {
    const r = child(`
      const big = 'x'.repeat(40 * 1024);
      log.info('one', { big });
      const before = writes;
      log.info('two', { big });
      write('before=' + before + ' after=' + writes + '\\n');
      process.exit(0);`);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l).msg)).toEqual(['one', 'two']);
    expect(r.stderr).toContain('before=0 after=1');
  });

  it('loses no line to process.exit', () => {
    const r = child(`log.error('fatal', { reason: 'bad setting' }); log.info('after'); process.exit(2);`);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n').map((l) => JSON.parse(l).msg)).toEqual(['fatal', 'after']);
  });
});
