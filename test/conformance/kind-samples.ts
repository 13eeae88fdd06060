import fs from 'node:fs';
import path from 'node:path';
import type { KindRegistration, KindSamples } from '../../pkg/meta';

/*
 * Each kind's conformance samples (pkg/meta's KindSamples) live beside its registration, so adding a kind touches
 * nothing here; a kind without them fails the suite.
 */

/** Where a kind's samples file is, from the repository root. */
export function samplesPath(kind: KindRegistration): string {
  return path.join('apis', kind.group, kind.version, kind.singular, `${kind.singular}-samples.ts`);
}

/** The samples beside `kind`'s registration; throws, naming the file, when it has none. */
export function samplesOf(kind: KindRegistration): KindSamples {
  const file = path.join(__dirname, '..', '..', samplesPath(kind));
  if (!fs.existsSync(file)) throw new Error(`${kind.kind} has no conformance samples: write ${samplesPath(kind)} (export const samples: KindSamples)`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require(file) as { samples: KindSamples }).samples;
}
