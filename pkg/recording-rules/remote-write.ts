import protobuf from 'protobufjs';
import { compressSync } from 'snappy';
import { callUpstream } from '../plugins/prometheus/prometheus-client';
import type { DataSourceInstance } from '../plugins';

/**
 * The Prometheus remote write protocol, version 0.1.0: a `prometheus.WriteRequest` (prompb/remote.proto and
 * types.proto), protobuf-encoded, snappy-compressed (the block format), POSTed with `Content-Encoding: snappy`.
 * The messages are declared here as protobufjs reflection (only the fields this server writes; field numbers as
 * prompb's), encoded by protobufjs; snappy is the `snappy` package (Rust's snap crate through napi-rs).
 */

/** prompb's WriteRequest, TimeSeries, Label and Sample, as protobufjs reflection JSON. */
const PROMPB = {
  nested: {
    prometheus: {
      nested: {
        WriteRequest: { fields: { timeseries: { rule: 'repeated', type: 'TimeSeries', id: 1 } } },
        TimeSeries: { fields: { labels: { rule: 'repeated', type: 'Label', id: 1 }, samples: { rule: 'repeated', type: 'Sample', id: 2 } } },
        Label: { fields: { name: { type: 'string', id: 1 }, value: { type: 'string', id: 2 } } },
        Sample: { fields: { value: { type: 'double', id: 1 }, timestamp: { type: 'int64', id: 2 } } },
      },
    },
  },
};

/** The WriteRequest message type (tests decode what was sent with it). */
export const WriteRequest = protobuf.Root.fromJSON(PROMPB).lookupType('prometheus.WriteRequest');

/** One series of a write: its labels (`__name__` included) and one sample. */
export interface RecordedSeries {
  labels: Record<string, string>;
  value: number;
  /** Epoch milliseconds. */
  timestamp: number;
}

/** The headers every remote write carries (the protocol's). */
export const REMOTE_WRITE_HEADERS = {
  'content-encoding': 'snappy',
  'x-prometheus-remote-write-version': '0.1.0',
} as const;

/**
 * The compressed body of a write of `series`: labels sorted by name in each series, as the protocol requires.
 *
 * @example encodeWriteRequest([{ labels: { __name__: 'up' }, value: 1, timestamp: Date.now() }])
 */
export function encodeWriteRequest(series: readonly RecordedSeries[]): Buffer {
  const message = WriteRequest.fromObject({
    timeseries: series.map((s) => ({
      labels: Object.keys(s.labels)
        .sort()
        .map((name) => ({ name, value: s.labels[name] })),
      samples: [{ value: s.value, timestamp: s.timestamp }],
    })),
  });
  return compressSync(Buffer.from(WriteRequest.encode(message).finish()));
}

/** A write the receiver refused, or that could not be sent. */
export class RemoteWriteError extends Error {}

/**
 * Writes `series` to the Prometheus data source `ds` at `path` below its URL (its credentials and custom headers
 * apply, as for its queries). Resolves on a 2xx; a refusal rejects with the receiver's status and first words.
 */
export async function remoteWrite(ds: DataSourceInstance, path: string, series: readonly RecordedSeries[], opts: { userAgent: string; signal: AbortSignal }): Promise<void> {
  const answer = await callUpstream(ds, {
    method: 'POST',
    path: path.replace(/^\/+/, ''),
    params: new URLSearchParams(),
    body: { contentType: 'application/x-protobuf', data: encodeWriteRequest(series) },
    headers: { ...REMOTE_WRITE_HEADERS },
    signal: opts.signal,
    userAgent: opts.userAgent,
  }).catch((err: unknown) => {
    throw new RemoteWriteError(`remote write failed: ${err instanceof Error ? err.message : String(err)}`);
  });
  if (answer.status < 200 || answer.status > 299) {
    const said = answer.body.toString('utf8').trim().slice(0, 200);
    throw new RemoteWriteError(`remote write answered ${answer.status}${said ? `: ${said}` : ''}`);
  }
}
