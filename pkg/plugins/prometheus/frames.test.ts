import { framesOf, legendName, sampleValue } from './frames';

const ctx = { refId: 'A', expr: 'up', legendFormat: '', stepMs: 15_000, executedQueryString: 'Expr: up\nStep: 15s' };

describe('Prometheus answers as frames (anchor-breadth §3.6)', () => {
  it('a matrix: one timeseries-multi frame per series, Time with the step as interval, the value field named after the metric with its labels', () => {
    const frames = framesOf(
      {
        resultType: 'matrix',
        result: [
          { metric: { __name__: 'up', job: 'svc', instance: 'a:1' }, values: [[1700000000, '1'], [1700000015.5, '0']] },
          { metric: { job: 'other' }, values: [[1700000000, 'NaN'], [1700000015, '+Inf'], [1700000030, '-Inf']] },
        ],
      },
      ctx,
    );
    expect(frames).toHaveLength(2);
    expect(frames[0]).toEqual({
      refId: 'A',
      meta: { type: 'timeseries-multi', custom: { resultType: 'matrix' }, executedQueryString: 'Expr: up\nStep: 15s' },
      fields: [
        { name: 'Time', type: 'time', frameType: 'time.Time', config: { interval: 15_000 }, values: [1700000000000, 1700000015500] },
        { name: 'up', type: 'number', frameType: 'float64', labels: { __name__: 'up', job: 'svc', instance: 'a:1' }, config: { displayNameFromDS: 'up{instance="a:1", job="svc"}' }, values: [1, 0] },
      ],
    });
    expect(frames[1]!.fields[1]).toMatchObject({ name: 'Value', labels: { job: 'other' }, config: { displayNameFromDS: '{job="other"}' }, values: [NaN, Infinity, -Infinity] });
  });

  it('a vector: numeric-multi frames of one row, no interval', () => {
    const [frame] = framesOf({ resultType: 'vector', result: [{ metric: { job: 'svc' }, value: [1700000000.25, '42.5'] }] }, { ...ctx, legendFormat: '{{job}} / {{ missing }}' });
    expect(frame).toEqual({
      refId: 'A',
      meta: { type: 'numeric-multi', custom: { resultType: 'vector' }, executedQueryString: ctx.executedQueryString },
      fields: [
        { name: 'Time', type: 'time', frameType: 'time.Time', values: [1700000000250] },
        { name: 'Value', type: 'number', frameType: 'float64', labels: { job: 'svc' }, config: { displayNameFromDS: 'svc / ' }, values: [42.5] },
      ],
    });
  });

  it('a scalar is named after the expression; a string result is a string field', () => {
    const [scalar] = framesOf({ resultType: 'scalar', result: [1700000000, '2'] }, { ...ctx, expr: '1+1' });
    expect(scalar!.fields.map((f) => [f.name, f.values, f.config])).toEqual([['Time', [1700000000000], undefined], ['Value', [2], { displayNameFromDS: '1+1' }]]);
    expect(scalar!.meta).toMatchObject({ type: 'numeric-multi', custom: { resultType: 'scalar' } });
    const [text] = framesOf({ resultType: 'string', result: [1700000000, 'hello'] }, ctx);
    expect(text!.fields[1]).toEqual({ name: 'Value', type: 'string', frameType: 'string', values: ['hello'] });
  });

  it('no series: one frame without fields that still says what ran; warnings become notices', () => {
    expect(framesOf({ resultType: 'matrix', result: [] }, { ...ctx, warnings: ['too many samples'] })).toEqual([
      { refId: 'A', fields: [], meta: { type: 'timeseries-multi', custom: { resultType: 'matrix' }, executedQueryString: ctx.executedQueryString, notices: [{ severity: 'warning', text: 'too many samples' }] } },
    ]);
  });

  it('legends: template, default naming, __auto, and the expression for a series without labels', () => {
    const labels = { __name__: 'http_requests_total', method: 'GET', code: '200' };
    expect(legendName(labels, '', 'x')).toBe('http_requests_total{code="200", method="GET"}');
    expect(legendName(labels, '{{method}} {{code}}', 'x')).toBe('GET 200');
    expect(legendName(labels, '__auto', 'x')).toBe('');
    expect(legendName({}, '__auto', 'sum(x)')).toBe('sum(x)');
    expect(legendName({}, '', 'sum(x)')).toBe('sum(x)');
    expect(legendName({}, 'total', 'sum(x)')).toBe('total');
  });

  it("reads Prometheus' non-finite samples", () => {
    expect([sampleValue('NaN'), sampleValue('+Inf'), sampleValue('-Inf'), sampleValue('1e3')]).toEqual([NaN, Infinity, -Infinity, 1000]);
  });
});
