import { frameToJSON } from './frames';
import type { Frame } from './types';

describe('frameToJSON (the SDK data-frame JSON)', () => {
  it('writes the schema and column-major values, refId always set, empty name/meta/labels/config left out', () => {
    const frame: Frame = {
      name: '',
      meta: {},
      fields: [
        { name: 'time', type: 'time', frameType: 'time.Time', values: [1000, 2000], config: {} },
        { name: 'value', type: 'number', frameType: 'float64', nullable: true, labels: {}, values: [1.5, null] },
      ],
    };
    expect(frameToJSON(frame, 'A')).toEqual({
      schema: {
        refId: 'A',
        fields: [
          { name: 'time', type: 'time', typeInfo: { frame: 'time.Time' } },
          { name: 'value', type: 'number', typeInfo: { frame: 'float64', nullable: true } },
        ],
      },
      data: { values: [[1000, 2000], [1.5, null]] },
    });
  });

  it('keeps the frame name, its own refId, meta, labels and config', () => {
    const json = frameToJSON(
      {
        name: 'cpu',
        refId: 'B',
        meta: { executedQueryString: 'SELECT 1' },
        fields: [{ name: 'v', type: 'number', frameType: 'int64', labels: { host: 'a' }, config: { interval: 1000 }, values: [1] }],
      },
      'A',
    );
    expect(json.schema).toEqual({
      name: 'cpu',
      refId: 'B',
      meta: { executedQueryString: 'SELECT 1' },
      fields: [{ name: 'v', type: 'number', typeInfo: { frame: 'int64' }, labels: { host: 'a' }, config: { interval: 1000 } }],
    });
  });

  it('writes NaN and ±Inf as null and lists their rows in entities (null for fields without any)', () => {
    const json = frameToJSON(
      {
        fields: [
          { name: 'time', type: 'time', frameType: 'time.Time', values: [1, 2, 3, 4] },
          { name: 'v', type: 'number', frameType: 'float64', values: [NaN, 1, Infinity, -Infinity] },
          { name: 'w', type: 'number', frameType: 'float64', values: [1, 2, 3, NaN] },
        ],
      },
      'A',
    );
    expect(json.data.values).toEqual([[1, 2, 3, 4], [null, 1, null, null], [1, 2, 3, null]]);
    expect(json.data.entities).toEqual([null, { NaN: [0], Inf: [2], NegInf: [3] }, { NaN: [3] }]);
    expect(json.data.nanos).toBeUndefined();
    // JSON.stringify would have written null for NaN anyway: the entities are what tell them apart from a null.
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  it('writes times in whole epoch ms and the sub-millisecond part in nanos', () => {
    const json = frameToJSON(
      {
        fields: [
          { name: 'time', type: 'time', frameType: 'time.Time', nullable: true, values: [1700000000000.25, 1700000000001, null, 5.9999999] },
          { name: 'v', type: 'number', frameType: 'float64', values: [1, 2, 3, 4] },
        ],
      },
      'A',
    );
    expect(json.data.values[0]).toEqual([1700000000000, 1700000000001, null, 6]);
    expect(json.data.nanos).toEqual([[250000, 0, 0, 0], null]);
    expect(json.data.entities).toBeUndefined();
  });

  it('writes a frame without fields', () => {
    expect(frameToJSON({ fields: [], meta: { executedQueryString: 'x' } }, 'C')).toEqual({ schema: { refId: 'C', meta: { executedQueryString: 'x' }, fields: [] }, data: { values: [] } });
  });
});
