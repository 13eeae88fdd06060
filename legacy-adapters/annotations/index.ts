import { z } from 'zod';
import { StatusError } from '../../pkg/errors';
import { byKind, defineArea, guard, type LegacyErrors, type LegacyParam } from '../shared';
import { graphiteCommand, massDeleteCommand, postCommand, updateCommand } from './annotations-conversions';
import {
  deleteAnnotation,
  getAnnotation,
  getAnnotations,
  getAnnotationTags,
  massDeleteAnnotations,
  patchAnnotation,
  postAnnotation,
  postGraphiteAnnotation,
  updateAnnotation,
} from './annotations-routes';

const annotation = z.object({
  id: z.number().int(),
  alertId: z.number().int().describe('always 0: there are no alert annotations'),
  alertName: z.string(),
  dashboardId: z.number().int().describe('deprecated numeric id of the dashboard, 0 for an organization annotation'),
  dashboardUID: z.string().nullable().describe('null for an organization annotation'),
  panelId: z.number().int(),
  userId: z.number().int().describe('the creator'),
  newState: z.string(),
  prevState: z.string(),
  created: z.number().int().describe('milliseconds since the epoch'),
  updated: z.number().int(),
  time: z.number().int().describe('milliseconds since the epoch'),
  timeEnd: z.number().int().describe('the end of a region; time for a point'),
  text: z.string(),
  tags: z.array(z.string()),
  login: z.string(),
  email: z.string(),
  avatarUrl: z.string(),
  data: z.record(z.string(), z.unknown()),
});
const record = { description: 'The annotation.', schema: annotation, name: 'Annotation' };
const added = (message: string) => ({ description: message, schema: z.object({ message: z.literal(message), id: z.number().int().describe('the new annotation\'s id') }) });
const ok = (message: string) => ({ description: message, schema: z.object({ message: z.literal(message) }) });
const annotationId: LegacyParam = { name: 'annotationId', in: 'path', type: 'integer', required: true };
const notFound = { description: 'Annotation not found (also one the caller may not read)' };
const tags = ['annotations'];
const int = (name: string, description: string): LegacyParam => ({ name, in: 'query', type: 'integer', description });

/** The registry's errors on annotations, in the anchor's words. */
const annotationErrors: LegacyErrors = {
  notFound: byKind({ annotations: () => new StatusError(404, 'NotFound', 'Annotation not found') }),
  // A dashboard that is not in the organization, or that the caller may not read (the kind's reference).
  badRequest: (err) => (err.details?.causes?.some((c) => c.reason === 'FieldValueNotFound') ? new StatusError(404, 'NotFound', 'Dashboard not found') : err),
  // A time or tag the kind refuses.
  invalid: () => StatusError.badRequest('Failed to save annotation'),
};

/**
 * /api/annotations (annotations-routes.ts): the anchor's annotations over the Annotation kind. The guards are the
 * anchor's route guards (the action on any scope); the registry then checks each annotation on its dashboard's scope
 * or the organization's (apis/annotation.svc.app).
 */
export const annotationsArea = defineArea({
  name: 'annotations',
  errors: annotationErrors,
  routes: [
    {
      method: 'get', path: '/api/annotations', guard: guard.can('annotations:read'), handler: getAnnotations, operationId: 'getAnnotations', tags,
      summary: 'Find annotations the caller may read, latest end first.',
      params: [
        int('from', 'with `to`: annotations overlapping [from, to], milliseconds since the epoch'),
        int('to', 'with `from`'),
        int('userId', 'only those this user created'),
        int('alertId', 'only those of this alert (there are none)'),
        int('dashboardId', 'deprecated: only those of this dashboard'),
        { name: 'dashboardUID', in: 'query', type: 'string', description: 'only those of this dashboard (400 when there is none)' },
        int('panelId', 'only those of this panel'),
        { name: 'limit', in: 'query', type: 'integer', default: 100, description: 'at most this many' },
        { name: 'tags', in: 'query', type: 'string', array: true, description: '`key` or `key:value`; all of them, or any with matchAny' },
        { name: 'type', in: 'query', type: 'string', enum: ['alert', 'annotation'], description: 'alert: none' },
        { name: 'matchAny', in: 'query', type: 'boolean', description: 'any of the tags instead of all' },
      ],
      responses: { 200: { description: 'The annotations.', schema: z.array(annotation) }, 400: { description: 'Invalid dashboard UID in annotation request' }, 401: {}, 403: {} },
    },
    {
      method: 'post', path: '/api/annotations', guard: guard.can('annotations:create'), handler: postAnnotation, operationId: 'postAnnotation', tags,
      summary: 'Create an annotation, on a dashboard (its panel) or for the organization.',
      description: 'Without `time` it is now; without `timeEnd` it is a point. A dashboard annotation needs annotations:create on the dashboard (its Edit level), an organization one on annotations:type:organization.',
      body: { schema: postCommand, name: 'PostAnnotationsCmd' },
      responses: { 200: added('Annotation added'), 400: { description: 'bad request data; Failed to save annotation (no text, bad times or tags)' }, 401: {}, 403: {}, 404: { description: 'Dashboard not found' } },
    },
    {
      method: 'post', path: '/api/annotations/graphite', guard: guard.can('annotations:create', 'annotations:type:organization'), handler: postGraphiteAnnotation,
      operationId: 'postGraphiteAnnotation', tags, summary: 'Create an organization annotation from a Graphite event.',
      description: '`what` is the text (with `data` on a line of its own), `when` seconds since the epoch (default now), `tags` a list or one string of tags separated by spaces.',
      body: { schema: graphiteCommand, name: 'PostGraphiteAnnotationsCmd' },
      responses: { 200: added('Graphite annotation added'), 400: { description: 'Failed to save Graphite annotation' }, 401: {}, 403: {} },
    },
    {
      method: 'post', path: '/api/annotations/mass-delete', guard: guard.can('annotations:delete'), handler: massDeleteAnnotations, operationId: 'massDeleteAnnotations', tags,
      summary: 'Delete one annotation, those of a dashboard\'s panel, or the organization\'s annotations of no panel.',
      description: 'A dashboard (dashboardUID or dashboardId) and a panelId go together (else 400). Every annotation matched must be deletable by the caller, else 403 and none is deleted.',
      body: { schema: massDeleteCommand, name: 'MassDeleteAnnotationsCmd' },
      responses: { 200: ok('Annotations deleted'), 400: { description: 'bad request data' }, 401: {}, 403: {}, 404: notFound },
    },
    {
      method: 'get', path: '/api/annotations/tags', guard: guard.can('annotations:read'), handler: getAnnotationTags, operationId: 'getAnnotationTags', tags,
      summary: 'The tags of the annotations the caller may read, with how many carry each.',
      params: [
        { name: 'tag', in: 'query', type: 'string', description: 'only tags whose key or value contains this' },
        { name: 'limit', in: 'query', type: 'integer', default: 100, description: 'at most this many' },
      ],
      responses: { 200: { description: 'The tags, by key then value.', schema: z.object({ result: z.object({ tags: z.array(z.object({ tag: z.string(), count: z.number().int() })) }) }), name: 'GetAnnotationTagsResponse' }, 401: {}, 403: {} },
    },
    {
      method: 'get', path: '/api/annotations/:annotationId', guard: guard.can('annotations:read'), handler: getAnnotation, operationId: 'getAnnotationByID', tags,
      summary: 'Get an annotation.', params: [annotationId],
      responses: { 200: record, 400: { description: 'annotationId is invalid' }, 401: {}, 403: {}, 404: notFound },
    },
    {
      method: 'put', path: '/api/annotations/:annotationId', guard: guard.can('annotations:write'), handler: updateAnnotation, operationId: 'updateAnnotation', tags,
      summary: 'Replace an annotation\'s text and tags, and its times or data when given.', params: [annotationId],
      body: { schema: updateCommand, name: 'UpdateAnnotationsCmd' },
      responses: { 200: ok('Annotation updated'), 400: { description: 'bad request data; annotationId is invalid; Failed to save annotation' }, 401: {}, 403: {}, 404: notFound },
    },
    {
      method: 'patch', path: '/api/annotations/:annotationId', guard: guard.can('annotations:write'), handler: patchAnnotation, operationId: 'patchAnnotation', tags,
      summary: 'Change the fields given of an annotation: a non-empty text, positive times, tags, data.', params: [annotationId],
      body: { schema: updateCommand, name: 'PatchAnnotationsCmd' },
      responses: { 200: ok('Annotation patched'), 400: { description: 'bad request data; annotationId is invalid; Failed to save annotation' }, 401: {}, 403: {}, 404: notFound },
    },
    {
      method: 'delete', path: '/api/annotations/:annotationId', guard: guard.can('annotations:delete'), handler: deleteAnnotation, operationId: 'deleteAnnotationByID', tags,
      summary: 'Delete an annotation.', params: [annotationId],
      responses: { 200: ok('Annotation deleted'), 400: { description: 'annotationId is invalid' }, 401: {}, 403: {}, 404: notFound },
    },
  ],
});
