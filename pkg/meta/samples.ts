/**
 * A kind's conformance samples: what the kind conformance suite (test/conformance) writes as its objects, kept
 * beside the registration in `apis/<group>/<version>/<singular>/<singular>-samples.ts` (exported as `samples`).
 * Only tests load them: the build leaves `*-samples.ts` out.
 */
export interface KindSamples {
  /** A valid spec of the object `name`. Fields the kind keeps unique (a login, a team's name) differ by name. */
  spec(name: string): Record<string, unknown>;
  /** Another valid spec of the object `name`, different from `spec(name)`: what updates write. */
  changed(name: string): Record<string, unknown>;
  invalid: Record<string, unknown>;
  /** Objects of other kinds the samples name (a correlation's data sources), created before the suite runs. */
  requires?: readonly { apiVersion: string; kind: string; metadata: { name: string }; spec: Record<string, unknown> }[];
  /** The field the 422 of `invalid` names (`spec.title`). */
  invalidField: string;
}
