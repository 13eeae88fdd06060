// Command-line flags of the benchmarks that take them (ratios.js, profile.js).
'use strict';

/**
 * `--name=value` as [name, value], split at the first '=' only: a value may hold more
 * (`--node-args=--max-semi-space-size=32`). A flag without '=' has the value undefined.
 *
 * @example flag('--node-args=--max-semi-space-size=32') // ['node-args', '--max-semi-space-size=32']
 */
function flag(arg) {
  const bare = arg.replace(/^--/, '');
  const at = bare.indexOf('=');
  return at < 0 ? [bare, undefined] : [bare.slice(0, at), bare.slice(at + 1)];
}

/** The value of --node-args: Node's own flags for the server, space-separated. */
const nodeArgsOf = (value) => value.split(' ').filter(Boolean);

module.exports = { flag, nodeArgsOf };
