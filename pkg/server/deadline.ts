/**
 * What `promise` settles to, or `fallback` when it has not settled within `ms` (the promise goes on; its timer is
 * cleared either way). For waits the server must bound though the work cannot be stopped: a health check's ping,
 * closing a pool at shutdown.
 *
 * @example await within(storage.ping().then(() => true, () => false), 5_000, false) // false: failed or too slow
 */
export async function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => (timer = setTimeout(resolve, ms, fallback)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
