import type { StatusCause } from '../../../../pkg/errors';
import type { KindStrategy } from '../../../../pkg/meta';
import { LibraryElementKind, type LibraryPanelSpec } from './librarypanel-schema';

const MIRRORED = ['type', 'description'] as const;

/**
 * The anchor's syncFieldsWithModel, on every write through either API: the model's `type` and `description`, when it
 * has them, are the element's; otherwise the element's are written into the model. A variable's model is named as
 * the element. The element's kind is fixed at creation.
 */
export const libraryPanelStrategy: KindStrategy<LibraryPanelSpec> = {
  validate(obj, old) {
    const causes: StatusCause[] = [];
    for (const field of MIRRORED) {
      const v = obj.spec.model[field];
      if (v !== undefined && v !== null && typeof v !== 'string') causes.push({ field: `spec.model.${field}`, reason: 'FieldValueInvalid', message: 'Invalid value: must be a string' });
    }
    if (old && old.spec.kind !== obj.spec.kind) causes.push({ field: 'spec.kind', reason: 'FieldValueInvalid', message: 'Invalid value: field is immutable' });
    return causes;
  },
  canonicalize(obj) {
    const spec = { ...obj.spec, model: { ...obj.spec.model } };
    for (const field of MIRRORED) {
      const v = spec.model[field];
      if (typeof v === 'string') spec[field] = v;
      else spec.model[field] = spec[field];
    }
    if (spec.kind === LibraryElementKind.variable) spec.model.name = spec.name;
    obj.spec = spec;
  },
};
