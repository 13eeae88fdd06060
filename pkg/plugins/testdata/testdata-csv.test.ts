import { csvToFrame, inferField, parseCsvRows, parseHeaderCell, parseLabels } from './testdata-csv';
import { seededRandom } from './testdata-random';
import { SCENARIOS } from './testdata-scenarios';

describe('testdata CSV', () => {
  it('reads RFC 4180 rows: quoted commas, doubled quotes, newlines in quotes, CRLF, blank lines', () => {
    expect(parseCsvRows('a,b\r\n"x,1","say ""hi"""\n\n"two\nlines",3')).toEqual([['a', 'b'], ['x,1', 'say "hi"'], ['two\nlines', '3']]);
  });

  it('reads labels in a header cell and in a labels text', () => {
    expect(parseHeaderCell(' value{host="a", dc=eu} ')).toEqual({ name: 'value', labels: { host: 'a', dc: 'eu' } });
    expect(parseHeaderCell('plain')).toEqual({ name: 'plain' });
    expect(parseLabels('{a="1,2", b=x}')).toEqual({ a: '1,2', b: 'x' });
    expect(parseLabels('')).toEqual({});
  });

  it.each([
    ['bool from the first value', ['TRUE', 'f', ''], 'bool', [true, false, null]],
    ['int64', ['1', '-2', 'null'], 'int64', [1, -2, null]],
    ['float64', ['1', '2.5', '1e3'], 'float64', [1, 2.5, 1000]],
    ['float64 with non-finite values', ['NaN', 'Inf', '-Inf'], 'float64', [NaN, Infinity, -Infinity]],
    ['string', ['1', 'x'], 'string', ['1', 'x']],
    ['string when the first value is no bool', ['1', 'true'], 'string', ['1', 'true']],
  ])('infers %s', (_name, cells, frameType, values) => {
    const f = inferField('f', cells);
    expect([f.frameType, f.nullable, f.values]).toEqual([frameType, true, values]);
  });

  it('makes time columns, pads short rows, names the frame', () => {
    const frame = csvToFrame('Time,v\n2024-01-01T00:00:00+01:00,1\n2024-01-01 00:00:00\n', 'n')!;
    expect(frame.name).toBe('n');
    expect(frame.fields[0]).toMatchObject({ name: 'Time', type: 'time', values: [Date.UTC(2023, 11, 31, 23), Date.UTC(2024, 0, 1)] });
    expect(frame.fields[1]!.values).toEqual([1, null]);
    // A "time" column with nothing that converts keeps its inferred type.
    expect(csvToFrame('time\nabc', '')!.fields[0]).toMatchObject({ type: 'string', values: ['abc'] });
    expect(csvToFrame('', '')).toBeUndefined();
  });
});

describe('testdata random walk', () => {
  it('is seeded by the range and the series index', () => {
    const seq = (from: number, to: number, i: number) => Array.from({ length: 5 }, seededRandom(from, to, i));
    expect(seq(1, 2, 0)).toEqual(seq(1, 2, 0));
    expect(seq(1, 2, 0)).not.toEqual(seq(1, 2, 1));
    expect(seq(1, 2, 0)).not.toEqual(seq(1, 3, 0));
    expect(seq(1_700_000_000_000, 1_700_000_060_000, 0).every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it('keeps to min/max, drops points, stops at 10,000 points', async () => {
    const walk = SCENARIOS.find((s) => s.id === 'random_walk')!;
    const q = (model: Record<string, unknown>, intervalMs = 1000) => ({ refId: 'A', maxDataPoints: 100, intervalMs, queryType: '', model });
    const signal = new AbortController().signal;
    const clamped = await walk.run(q({ min: 10, max: 11, spread: 50 }), { from: 0, to: 100_000 }, signal);
    expect((clamped.frames[0]!.fields[1]!.values as number[]).every((v) => v >= 10 && v <= 11)).toBe(true);
    const dropped = await walk.run(q({ dropPercent: 50 }), { from: 0, to: 100_000 }, signal);
    expect(dropped.frames[0]!.fields[0]!.values.length).toBeLessThan(90);
    const long = await walk.run(q({}, 1), { from: 0, to: 1e9 }, signal);
    expect(long.frames[0]!.fields[0]!.values).toHaveLength(10_000);
  });
});
