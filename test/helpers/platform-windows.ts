// The platform's rate limiters ([[ratelimits]] in wrangler.toml; locally miniflare's emulation) count in
// fixed windows aligned to the wall clock, outside the test's isolate, so a faked Date does not move them.
// A test that needs its calls in one window, to assert the exact call that is refused, waits first when
// the current window ends too soon.

/** Resolves at once when more than `marginMs` of the current `periodSeconds` window remains, else once the next has begun. */
export async function withinOneWindow(periodSeconds = 60, marginMs = 15_000): Promise<void> {
  const periodMs = periodSeconds * 1000;
  const left = periodMs - (Date.now() % periodMs);
  if (left <= marginMs) await new Promise((resolve) => setTimeout(resolve, left + 250));
}
