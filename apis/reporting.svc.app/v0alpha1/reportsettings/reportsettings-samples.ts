import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as ReportSettings objects. */
export const samples: KindSamples = {
  spec: () => ({ branding: { emailFooterMode: 'sent-by', emailFooterText: 'Ops', emailFooterLink: 'https://ops.example.org/' } }),
  changed: () => ({ branding: { emailFooterMode: 'none', reportLogoUrl: 'https://ops.example.org/logo.png' } }),
  invalid: { branding: { reportLogoUrl: 'javascript:alert(1)' } },
  invalidField: 'spec.branding.reportLogoUrl',
};
