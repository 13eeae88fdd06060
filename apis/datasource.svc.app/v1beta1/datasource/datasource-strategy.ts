import { type StatusCause, StatusError } from '../../../../pkg/errors';
import type { KindStrategy } from '../../../../pkg/meta';
import { DataSourceMessages, type DataSourceSpec, MAX_JSON_DATA_BYTES } from './datasource-schema';
import { urlAcceptable } from './datasource-url';

const details = (name: string) => ({ name, group: 'datasource.svc.app', kind: 'datasources' });

/**
 * The data source rules both APIs keep: a URL its type accepts, `jsonData` of a settings' size, and provisioned
 * (`readOnly`) data sources that no one changes or deletes (the anchor's 403s).
 */
export const dataSourceStrategy: KindStrategy<DataSourceSpec> = {
  validate(obj) {
    const causes: StatusCause[] = [];
    if (!urlAcceptable(obj.spec.type, obj.spec.url)) causes.push({ field: 'spec.url', reason: 'FieldValueInvalid', message: DataSourceMessages.urlSyntax });
    if (obj.spec.jsonData && JSON.stringify(obj.spec.jsonData).length > MAX_JSON_DATA_BYTES) {
      causes.push({ field: 'spec.jsonData', reason: 'FieldValueTooLong', message: DataSourceMessages.jsonDataTooLarge });
    }
    return causes;
  },
  refuseChange(current, verb) {
    if (!current.spec.readOnly) return undefined;
    const message = verb === 'update' ? DataSourceMessages.readOnlyUpdate : DataSourceMessages.readOnlyDelete;
    return new StatusError(403, 'Forbidden', message, details(current.metadata.name));
  },
};
