import fs from 'node:fs';
import path from 'node:path';
import type { KindRegistration, KindSamples } from '../../pkg/meta';
import { allKinds } from '../../apis';

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

/**
 * Creates, as `post` does (the admin through /apis), the objects `kind`'s samples name (a correlation's data sources),
 * so that a suite writing its samples can run first.
 */
export async function createRequired(kind: KindRegistration, post: (path: string, body: object) => Promise<{ status: number }>): Promise<void> {
  for (const obj of samplesOf(kind).requires ?? []) {
    const required = allKinds.find((k) => `${k.group}/${k.version}` === obj.apiVersion && k.kind === obj.kind);
    if (!required) throw new Error(`${kind.kind} samples require a ${obj.kind} ${obj.apiVersion}, which is not served`);
    const status = (await post(`/apis/${required.group}/${required.version}/namespaces/default/${required.plural}`, obj)).status;
    if (status !== 201) throw new Error(`creating the ${obj.kind} ${obj.metadata.name} that ${kind.kind} samples require answered ${status}`);
  }
}

/**
 * A test's object names for `kind`: the names themselves, or for a kind named by its numeric id (`internalIds:
 * 'name'`, annotations) one number per name in the order asked, from `first`.
 *
 * @example const n = sampleNames(kind, 800_000); await create(n('jp-ok')); // 'jp-ok', or '800000'
 */
export function sampleNames(kind: KindRegistration, first: number): (name: string) => string {
  const numbers = new Map<string, string>();
  return (name) => {
    if (kind.internalIds !== 'name') return name;
    if (!numbers.has(name)) numbers.set(name, String(first + numbers.size));
    return numbers.get(name)!;
  };
}
