// Outbound work bounded in time whose timer ends with the work. `AbortSignal.timeout(ms)` keeps its timer
// for the whole `ms` after the work is done: after every callback attempt (15 s) and DNS lookup (5 s) the
// session's Durable Object, where the first attempt runs, stayed busy with a timer that had nothing left to
// abort, and was evicted that much later (docs/performance.md, 27 Nov 2026).

/** Runs `work` with a signal that aborts after `ms` (a TimeoutError, as AbortSignal.timeout's); the timer stops when `work` settles. */
export async function withDeadline<T>(ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError")), ms);
  try {
    return await work(controller.signal);
  } finally {
    clearTimeout(timer);
  }
}
