import { z } from 'zod';
import type { Config } from '../../pkg/config';
import { defineArea, guard } from '../shared';
import {
  createRecordingRule, createWriteTarget, deleteRecordingRule, deleteWriteTarget, getWriteTarget, listRecordingRules, testRecordingRule, updateRecordingRule,
} from './recording-rules-routes';

const tags = ['recording_rules', 'enterprise'];
/** Recording rules are the enterprise edition's (the anchor's recorded queries). */
const enterprise = (config: Config) => config.server.edition === 'enterprise';
const enterpriseOnly = 'Enterprise edition only: 404 in the others.';
const message = z.object({ message: z.string() });

const recordingRule = z.object({
  id: z.string().optional().describe('The rule\'s numeric id, as a string (ignored on create; required on update; always answered)'),
  name: z.string(),
  description: z.string().optional(),
  active: z.boolean().optional().describe('Default true: evaluated every interval'),
  count: z.boolean().optional().describe('Record the number of rows of the result instead of its value'),
  interval: z.number().int().describe('Seconds between evaluations, 1 to 86400'),
  range: z.number().int().optional().describe('Seconds of data the queries read, ending at the evaluation; 0 (default): the interval'),
  dest_data_source_uid: z.string().optional().describe('A Prometheus data source written to instead of the write target\'s'),
  prom_name: z.string().describe('The metric name of the recorded series'),
  target_ref_id: z.string().optional().describe('The refId of the query recorded; default the first query\'s'),
  queries: z.array(z.record(z.string(), z.unknown())).describe('Data source queries, as in a POST /api/ds/query body (each names datasource.uid)'),
  labels: z.record(z.string(), z.string()).optional().describe('Ours: labels added to every recorded series'),
});
const writeTarget = z.object({
  id: z.string().optional().describe('Answered; ignored in a body'),
  data_source_uid: z.string().describe('A Prometheus data source of the organization'),
  remote_write_path: z.string().optional().describe('Below the data source URL; default /api/v1/write (Prometheus\' receiver)'),
});
const series = z.object({ labels: z.record(z.string(), z.string()), value: z.number(), timestamp: z.number().int().describe('Epoch ms') });
const ruleBody = { schema: recordingRule, name: 'RecordingRuleJSON' };
const badRule = { description: '`{message}` naming the field: a missing or invalid member, a query without datasource.uid or naming no data source of the organization, a destination that is no Prometheus data source.' };

/** Recording rules (the enterprise edition's recorded queries): the anchor's `recording_rules` routes. */
export const recordingRulesArea = defineArea({
  name: 'recording-rules',
  routes: [
    {
      method: 'get', path: '/api/recording-rules', guard: guard.orgAdmin, servedIn: enterprise, handler: listRecordingRules,
      operationId: 'listRecordingRules', tags, summary: 'Lists all rules in the database: active or deleted.', description: `${enterpriseOnly} The organization's rules by id.`,
      responses: { 200: { description: 'The rules.', schema: z.array(recordingRule) }, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'post', path: '/api/recording-rules', guard: guard.orgAdmin, servedIn: enterprise, handler: createRecordingRule,
      operationId: 'createRecordingRule', tags, summary: 'Create a recording rule that is then registered and started.',
      description: `${enterpriseOnly} An active rule is first evaluated within a second, then every interval, by one replica; its series are written to the remote write target with the Prometheus remote write protocol.`,
      body: ruleBody,
      responses: { 200: { description: 'The rule as stored, with its id.', schema: recordingRule, name: 'RecordingRuleJSON' }, 400: badRule, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'put', path: '/api/recording-rules', guard: guard.orgAdmin, servedIn: enterprise, handler: updateRecordingRule,
      operationId: 'updateRecordingRule', tags, summary: 'Update the active status of a rule.',
      description: `${enterpriseOnly} The rule named by \`id\`; members the body omits keep their values ({id, active: false} pauses it).`,
      body: ruleBody,
      responses: { 200: { description: 'The rule as stored.', schema: recordingRule, name: 'RecordingRuleJSON' }, 400: badRule, 401: {}, 403: {}, 404: { description: 'Recording rule not found.' } },
    },
    {
      method: 'post', path: '/api/recording-rules/test', guard: guard.orgAdmin, servedIn: enterprise, handler: testRecordingRule,
      operationId: 'testCreateRecordingRule', tags, summary: 'Test a recording rule.',
      description: `${enterpriseOnly} Evaluates the rule once as the caller and answers the series it would write; nothing is stored or written.`,
      body: ruleBody,
      responses: {
        200: { description: 'The series the rule would write (`series`: ours).', schema: message.extend({ series: z.array(series) }) },
        400: badRule, 401: {}, 403: {}, 404: {},
        422: { description: 'The result cannot be recorded: the query failed or returned no number.' },
      },
    },
    {
      method: 'get', path: '/api/recording-rules/writer', guard: guard.orgAdmin, servedIn: enterprise, handler: getWriteTarget,
      operationId: 'getRecordingRuleWriteTarget', tags, summary: 'Return the prometheus remote write target.', description: enterpriseOnly,
      responses: { 200: { description: 'The target.', schema: writeTarget, name: 'PrometheusRemoteWriteTargetJSON' }, 401: {}, 403: {}, 404: { description: 'Remote write target not found.' } },
    },
    {
      method: 'post', path: '/api/recording-rules/writer', guard: guard.orgAdmin, servedIn: enterprise, handler: createWriteTarget,
      operationId: 'createRecordingRuleWriteTarget', tags, summary: 'Create a remote write target.',
      description: `${enterpriseOnly} It returns a 422 if there is not an existing prometheus data source configured. Replaces the organization's target.`,
      body: { schema: writeTarget, name: 'PrometheusRemoteWriteTargetJSON' },
      responses: {
        200: { description: 'The target as stored.', schema: writeTarget, name: 'PrometheusRemoteWriteTargetJSON' },
        400: { description: 'A missing data_source_uid, or a remote_write_path that is no path.' }, 401: {}, 403: {}, 404: {},
        422: { description: 'data_source_uid names no Prometheus data source of the organization.' },
      },
    },
    {
      method: 'delete', path: '/api/recording-rules/writer', guard: guard.orgAdmin, servedIn: enterprise, handler: deleteWriteTarget,
      operationId: 'deleteRecordingRuleWriteTarget', tags, summary: 'Delete the remote write target.', description: enterpriseOnly,
      responses: { 200: { description: 'Remote write target deleted.', schema: message }, 401: {}, 403: {}, 404: { description: 'Remote write target not found.' } },
    },
    {
      method: 'delete', path: '/api/recording-rules/:recordingRuleID', guard: guard.orgAdmin, servedIn: enterprise, handler: deleteRecordingRule,
      operationId: 'deleteRecordingRule', tags, summary: 'Delete removes the rule from the registry and stops it.', description: enterpriseOnly,
      params: [{ name: 'recordingRuleID', in: 'path', type: 'integer', required: true }],
      responses: { 200: { description: 'Recording rule deleted.', schema: message }, 400: { description: 'recordingRuleID is invalid.' }, 401: {}, 403: {}, 404: { description: 'Recording rule not found.' } },
    },
  ],
});
