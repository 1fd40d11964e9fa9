// Latency at a fixed request rate: the tail a merchant sees when the service is busy but not overrun.
// autocannon's closed loop (bench.ts's throughput rounds) keeps 10 requests in flight on 2 cores, so its
// latencies are mostly each request's wait behind the other nine, and its p99 ÷ p50 is what wrangler dev,
// the load generator and the shared cores do to that queue: the floor, which does nothing but its storage
// calls, misses the 3 × there too. Here requests leave on a schedule (open loop), whether or not
// earlier ones have answered, and each latency counts from the moment its request was due, so a stall
// delays and counts every request behind it (no coordinated omission). Timed with performance.now() in
// microseconds, where autocannon rounds to whole milliseconds.
import { Agent, request as httpRequest } from "node:http";

export type Paced = { rate: number; requests: number; p50: number; p90: number; p99: number; max: number; errors: number };
export type PacedRequest = { url: string; method?: string; headers?: Record<string, string>; body?: string };

/** The q-quantile (0 < q < 1) of sorted values, nearest rank. */
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;

function send(agent: Agent, spec: PacedRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(spec.url, { method: spec.method ?? "GET", headers: spec.headers, agent }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(spec.body);
  });
}

/** `rate` requests a second for `durationS` seconds, evenly spaced; latencies in milliseconds. */
export async function measurePaced(spec: PacedRequest, rate: number, durationS: number): Promise<Paced> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const total = Math.max(1, Math.round(rate * durationS));
  const latencies: number[] = [];
  let errors = 0;
  const inFlight: Promise<void>[] = [];
  const start = performance.now() + 20;
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait - 0.5));
    inFlight.push(
      send(agent, spec).then(
        (status) => {
          if (status < 200 || status >= 300) errors++;
          latencies.push(performance.now() - due);
        },
        () => {
          errors++;
        },
      ),
    );
  }
  await Promise.all(inFlight);
  agent.destroy();
  const sorted = latencies.sort((a, b) => a - b);
  return {
    rate,
    requests: total,
    p50: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
    p99: quantile(sorted, 0.99),
    max: sorted.at(-1) ?? NaN,
    errors,
  };
}
