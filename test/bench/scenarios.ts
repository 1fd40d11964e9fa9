// The measured request mixes, each run by autocannon at the same fixed concurrency and duration.
import autocannon, { type Options, type Result } from "autocannon";
import type { Fixtures } from "./prepare";

export type Load = { connections: number; duration: number };

export type Measured = {
  name: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** Connection errors, timeouts and non-2xx answers together. */
  errors: number;
  statusCodes: Record<string, number>;
};

export const SESSION_PATH = "/api/age-verification/session";

function summarise(name: string, result: Result): Measured {
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = Number(count);
  const requests = Object.values(statusCodes).reduce((sum, n) => sum + n, 0);
  return {
    name,
    requests,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    statusCodes,
  };
}

async function run(name: string, options: Options): Promise<Measured> {
  return summarise(name, await autocannon(options));
}

export const measureHealth = (baseUrl: string, load: Load) => run("health", { url: `${baseUrl}/api/health`, ...load });

export const measurePoll = (baseUrl: string, load: Load, fixtures: Fixtures, sessionId: string) =>
  run("poll", { url: `${baseUrl}${SESSION_PATH}/${sessionId}`, headers: { "x-api-key": fixtures.apiKey }, ...load });

export const measureOpen = (baseUrl: string, load: Load, fixtures: Fixtures, callbackUrl: string) =>
  run("open", {
    url: `${baseUrl}${SESSION_PATH}`,
    method: "POST",
    headers: { "x-api-key": fixtures.apiKey, "content-type": "application/json" },
    body: JSON.stringify({ age_required: 18, callback_url: callbackUrl }),
    ...load,
  });

let people = 0;
/**
 * Each flow's answer comes from a client address of its own (RFC 2544's benchmarking range): the load
 * stands for many people, and every answer counts against its address's session-link limit (120 a
 * minute, docs/limits.md), which one address would exhaust in a second.
 */
export const nextPersonAddress = (): string => {
  people = (people + 1) % 65_536;
  return `198.18.${people >> 8}.${people & 255}`;
};

/** Open, then complete as the end user, then poll: three requests per flow, chained through the context. */
export const measureFlow = (baseUrl: string, load: Load, fixtures: Fixtures, callbackUrl: string) =>
  run("open+complete+poll", {
    url: baseUrl,
    ...load,
    requests: [
      {
        method: "POST",
        path: SESSION_PATH,
        headers: { "x-api-key": fixtures.apiKey, "content-type": "application/json" },
        body: JSON.stringify({ age_required: 18, callback_url: callbackUrl }),
        onResponse(status, body, context) {
          if (status !== 201) return;
          const data = JSON.parse(body).data;
          context.sessionId = data.session_id;
          context.nonce = data.nonce;
        },
      },
      {
        method: "POST",
        setupRequest(request, context) {
          // Without an opened session, start the flow again.
          if (typeof context.sessionId !== "string") return false;
          return {
            ...request,
            path: `${SESSION_PATH}/${context.sessionId}/complete`,
            headers: {
              authorization: `Bearer ${fixtures.userToken}`,
              "content-type": "application/json",
              "cf-connecting-ip": nextPersonAddress(),
            },
            body: JSON.stringify({ nonce: context.nonce, consent: true }),
          };
        },
      },
      {
        method: "GET",
        setupRequest(request, context) {
          if (typeof context.sessionId !== "string") return false;
          return { ...request, path: `${SESSION_PATH}/${context.sessionId}`, headers: { "x-api-key": fixtures.apiKey }, body: undefined };
        },
      },
    ],
  });
