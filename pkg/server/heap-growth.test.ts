import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * The growth factors V8 chose at the full collections of a child process that keeps ~10 MiB, after `body` ran, as
 * V8 reports them (`--trace-gc-verbose`: "[HeapController] Limit: old size: ..., new limit: ... (1.5)").
 */
function factorsAfter(body: string): number[] {
  const script = `
    const { limitHeapGrowth } = require(${JSON.stringify(path.join(ROOT, 'pkg', 'server', 'heap-growth.ts'))});
    ${body}
    const kept = [];
    for (let i = 0; i < 200000; i++) kept.push({ i, s: 'x' + i });
    gc();
    gc();`;
  const r = spawnSync(process.execPath, ['--expose-gc', '--trace-gc-verbose', '-r', path.join(ROOT, 'test', 'support', 'ts-register.js'), '-e', script], { encoding: 'utf8' });
  expect(r.status).toBe(0);
  return [...r.stdout.matchAll(/\[HeapController\] Limit: old size: \d+ KB, new limit: \d+ KB \(([\d.]+)\)/g)].map((m) => Number(m[1]));
}

describe('limitHeapGrowth', () => {
  it('makes every later full collection size the heap at (1 + percent/100) times what it kept', () => {
    expect(factorsAfter('limitHeapGrowth(50);')).toEqual([1.5, 1.5]);
    expect(factorsAfter('limitHeapGrowth(100);')).toEqual([2, 2]);
  });

  it("leaves V8's own factor with 0, which is larger here (what the setting is for)", () => {
    const own = factorsAfter('limitHeapGrowth(0);');
    expect(own).toHaveLength(2);
    for (const f of own) expect(f).toBeGreaterThan(1.5);
  });
});
