import { recordingRuleSpecSchema } from '../../apis/recordingrules.svc.app/v0alpha1/recordingrule';
import { recordingRuleWriterSpecSchema } from '../../apis/recordingrules.svc.app/v0alpha1/recordingrulewriter';
import { ruleFromJSON, ruleToJSON, writerFromJSON, writerToJSON } from './recording-rules-conversions';

describe('recording rule conversions', () => {
  it('round-trips a rule: JSON -> spec -> JSON', () => {
    const json = {
      id: '7', name: 'Temperature', description: 'kitchen', active: false, count: true, interval: 30, range: 300, dest_data_source_uid: 'prom2',
      prom_name: 'svc:temp', target_ref_id: 'B', queries: [{ refId: 'A', datasource: { uid: 'td' } }, { refId: 'B', datasource: { uid: 'td' } }], labels: { room: 'kitchen' },
    };
    const spec = recordingRuleSpecSchema.parse(ruleFromJSON(json));
    expect(ruleToJSON('7', spec)).toEqual(json);
  });

  it('fills what a body omits with the defaults', () => {
    const spec = recordingRuleSpecSchema.parse(ruleFromJSON({ name: 'R', interval: 10, prom_name: 'r', queries: [{ datasource: { uid: 'td' } }] }));
    expect(ruleToJSON('1', spec)).toMatchObject({ active: true, count: false, range: 0, dest_data_source_uid: '', target_ref_id: '', labels: {}, description: '' });
  });

  it('round-trips a writer, the path defaulting to Prometheus\' receiver', () => {
    const json = { id: 'u-1', data_source_uid: 'prom', remote_write_path: '/prometheus/api/v1/push' };
    expect(writerToJSON('u-1', recordingRuleWriterSpecSchema.parse(writerFromJSON(json)))).toEqual(json);
    expect(recordingRuleWriterSpecSchema.parse(writerFromJSON({ data_source_uid: 'prom' })).remoteWritePath).toBe('/api/v1/write');
  });
});
