import { z } from 'zod';

/** Where Prometheus' remote write receiver listens (`--web.enable-remote-write-receiver`). */
export const DEFAULT_REMOTE_WRITE_PATH = '/api/v1/write';

/**
 * A path below the data source URL: starts with `/`, no query, fragment, `..` segment, backslash or control
 * character, so it never leaves the data source's host or base path.
 */
const remoteWritePath = z
  .string()
  .max(1024)
  .regex(/^\/[^?#\\\u0000-\u001f\u007f]*$/, 'must be a path starting with / (no query or fragment)')
  .refine((p) => !p.split('/').some((s) => s === '..' || s === '.'), 'must not hold . or .. segments');

/**
 * The remote write target of an organization's recording rules (the anchor's PrometheusRemoteWriteTarget): the
 * Prometheus data source samples are written to (its URL, credentials and headers) and the remote write path below
 * its URL.
 */
export const recordingRuleWriterSpecSchema = z.looseObject({
  dataSourceUid: z.string().min(1, 'must not be empty').max(40),
  remoteWritePath: remoteWritePath.default(DEFAULT_REMOTE_WRITE_PATH),
});

export type RecordingRuleWriterSpec = z.infer<typeof recordingRuleWriterSpecSchema>;
