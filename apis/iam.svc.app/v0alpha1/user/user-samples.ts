import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as User objects. */
export const samples: KindSamples = {
  // Login and email are the user's own; the uid is any name's letters (the suite's names include 'a b').
  spec: (name) => ({ uid: uidOf(name), login: name, email: `${name}@example.com`, name: 'Ana' }),
  changed: (name) => ({ uid: uidOf(name), login: `${name}-2`, email: `${name}-2@example.com`, name: 'Ana B', isDisabled: true }),
  invalid: { uid: 'ok', login: '   ' },
  invalidField: 'spec.login',
};

function uidOf(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40);
}
