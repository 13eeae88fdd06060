import type { KindSamples } from '../../../../pkg/meta';

const star = (name: string) => ({ group: 'dashboard.svc.app', resource: 'dashboards', name, uid: `uid-${name}` });

/** What the kind conformance suite (test/conformance) writes as Stars objects. */
export const samples: KindSamples = {
  spec: (name) => ({ items: [star(`d-${name}`)] }),
  changed: (name) => ({ items: [star(`d-${name}`), star(`e-${name}`)] }),
  invalid: { items: [{ group: 'dashboard.svc.app', resource: 'dashboards', name: '' }] },
  invalidField: 'spec.items[0].name',
};
