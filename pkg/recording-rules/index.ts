export { type EvaluationDeps, evaluateRule, targetOf } from './evaluate';
export { RecordingRules, type RecordingRulesDeps, type RecordingRulesOptions } from './recording-rules';
export { encodeWriteRequest, type RecordedSeries, REMOTE_WRITE_HEADERS, remoteWrite, RemoteWriteError, WriteRequest } from './remote-write';
export { seriesOf, UnrecordableResult } from './rule-series';
