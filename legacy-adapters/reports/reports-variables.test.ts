import { interpolate, interpolateText, variableValues } from './reports-variables';

const model = {
  templating: {
    list: [
      { name: 'host', current: { value: 'alpha' } },
      { name: 'env', current: { value: ['prod', 'stage'] } },
      { name: 'all', current: { value: '$__all' }, options: [{ value: '$__all' }, { value: 'x' }, { value: 'y' }] },
      { name: 'broken' },
    ],
  },
};

test('values: the dashboard\'s current ones, overridden by the report\'s', () => {
  expect(variableValues(model)).toEqual(new Map([['host', ['alpha']], ['env', ['prod', 'stage']], ['all', ['x', 'y']]]));
  expect(variableValues(model, { host: 'omega' }, { env: ['dev'] }).get('host')).toEqual(['omega']);
  expect(variableValues(model, { host: 'omega' }, { host: 'delta' }).get('host')).toEqual(['delta']);
  expect(variableValues({}, { n: 3, bad: { a: 1 } })).toEqual(new Map([['n', ['3']]]));
});

test('text: the anchor\'s syntaxes and formats; unknown names and built-ins stay', () => {
  const values = variableValues(model);
  expect(interpolateText('host=$host env=${env} [[host]] ${env:pipe} ${env:regex} ${env:singlequote}', values)).toBe("host=alpha env=prod,stage alpha prod|stage (prod|stage) 'prod','stage'");
  expect(interpolateText('$__interval $unknown ${nope:csv}', values)).toBe('$__interval $unknown ${nope:csv}');
  expect(interpolateText('${host:regex}', new Map([['host', ['a.b']]]))).toBe('a\\.b');
});

test('queries: every string but the data source and refId', () => {
  const q = { refId: '$host', datasource: { uid: '$host' }, expr: 'up{host="$host"}', nested: { list: ['$env'] }, n: 1 };
  expect(interpolate(q, variableValues(model))).toEqual({ refId: '$host', datasource: { uid: '$host' }, expr: 'up{host="alpha"}', nested: { list: ['prod,stage'] }, n: 1 });
});
