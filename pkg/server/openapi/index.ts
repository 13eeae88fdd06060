export { apisOpenApiRouter, type ApisOpenApiOptions, serverRelativeURL } from './apis-openapi-router';
export { groupVersionDocument, schemaName } from './apis-document';
export { legacyDocuments, legacyOpenApiRouter, type LegacyOpenApiOptions } from './legacy-openapi-router';
export { healthRouteDocs, legacyRoutes, type LegacyBody, type LegacyParam, type LegacyResponse, type LegacyRouteDoc } from './legacy-routes';
export { legacySwagger } from './legacy-swagger';
export { structuralSchema } from './structural-schema';
export { swagger2ToOpenapi3 } from './swagger2-to-openapi3';
