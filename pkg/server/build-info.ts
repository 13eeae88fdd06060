import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface BuildInfo {
  version: string;
  commit: string;
}

const ROOT = path.resolve(__dirname, '..', '..', fs.existsSync(path.resolve(__dirname, '..', '..', 'package.json')) ? '' : '..');

/** Version from package.json; commit from the build (dist/build-info.json), else from git, else "unknown". */
export function readBuildInfo(): BuildInfo {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
  return { version: pkg.version, commit: commitFromBuild() ?? commitFromGit() ?? 'unknown' };
}

function commitFromBuild(): string | undefined {
  try {
    return (JSON.parse(fs.readFileSync(path.join(ROOT, 'dist', 'build-info.json'), 'utf8')) as { commit?: string }).commit;
  } catch {
    return undefined;
  }
}

function commitFromGit(): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim() || undefined;
  } catch {
    return undefined;
  }
}
