// The double-blind flow in `npm run bench` (docs/double-blind.md): per flow, the issuance of a batch of
// five tokens (POST /api/age-tokens, Bearer: five RSA-2048 blind signatures), a double-blind session
// opened, and its redemption with one token (no account: one RSA-PSS verification, the spent-token row,
// the session's approval). Against the floor's same routes, which make the same storage calls and the
// same RSA operations (test/bench/floor/worker.ts). The TokenRequests are built once (the service keeps
// no trace of them, so the same five are signed every time); each redemption needs its own token, so a
// pool is issued through the service's own route before measuring, with the client written from the RFCs
// (test/age-tokens/rfc-client.ts), and each server spends each token once.
import autocannon from "autocannon";
import { b64url, createTokenRequest, tokenChallenge, unb64url } from "../age-tokens/rfc-client";
import { apiClient, expectStatus } from "../tools/api-client";
import type { Fixtures } from "./prepare";
import { SESSION_PATH, nextPersonAddress, type Load, type Measured } from "./scenarios";

/** Flows per measurement at most: the pool is split across the rounds. */
export const FLOWS_PER_RUN = 400;
const BATCH = 5;

export type TokenPool = { requests: string[]; tokens: string[]; next: Map<string, number> };

/** The service's challenge (its host as issuer and origin, no context) and its 18 key, from the directory. */
async function issuerOf(baseUrl: string) {
  const res = await fetch(`${baseUrl}/.well-known/private-token-issuer-directory`);
  const directory = (await res.json()) as { "token-keys": { "token-key": string; age_over: number }[] };
  const key = directory["token-keys"].find((k) => k.age_over === 18);
  if (!key) throw new Error("the service offers no 18 token key");
  const host = new URL(baseUrl).host;
  return { challenge: tokenChallenge(host, new Uint8Array(0), host), tokenKey: unb64url(key["token-key"].replace(/=+$/, "")) };
}

/** `flows` tokens, issued ten at a time through the service's route, and the batch of five requests the flows send. */
export async function tokenPool(baseUrl: string, fixtures: Fixtures, flows: number): Promise<TokenPool> {
  const { challenge, tokenKey } = await issuerOf(baseUrl);
  const api = apiClient(baseUrl);
  const tokens: string[] = [];
  while (tokens.length < flows) {
    const pending = await Promise.all(Array.from({ length: 10 }, () => createTokenRequest(challenge, tokenKey)));
    const res = await api("POST", "/api/age-tokens", {
      token: fixtures.userToken,
      body: { age_over: 18, token_requests: pending.map((p) => b64url(p.tokenRequest)) },
    });
    expectStatus(res, 200);
    const responses = res.body.data.token_responses as string[];
    for (const [i, p] of pending.entries()) tokens.push(b64url(await p.finalize(unb64url(responses[i]!))));
  }
  const batch = await Promise.all(Array.from({ length: BATCH }, () => createTokenRequest(challenge, tokenKey)));
  return { requests: batch.map((p) => b64url(p.tokenRequest)), tokens, next: new Map() };
}

/** Issue a batch, open a double-blind session, redeem one token: three requests per flow, at most FLOWS_PER_RUN flows. */
export async function measureDoubleBlind(
  baseUrl: string,
  load: Load,
  fixtures: Fixtures,
  callbackUrl: string,
  pool: TokenPool,
): Promise<Measured> {
  const start = pool.next.get(baseUrl) ?? 0;
  const flows = Math.min(FLOWS_PER_RUN, pool.tokens.length - start);
  let taken = start;
  const result = await autocannon({
    url: baseUrl,
    ...load,
    // Stops when this run's share of the pool is spent: a token is never sent twice to one server.
    amount: flows * 3,
    requests: [
      {
        method: "POST",
        path: "/api/age-tokens",
        headers: { authorization: `Bearer ${fixtures.userToken}`, "content-type": "application/json" },
        body: JSON.stringify({ age_over: 18, token_requests: pool.requests }),
      },
      {
        method: "POST",
        path: SESSION_PATH,
        headers: { "x-api-key": fixtures.apiKey, "content-type": "application/json" },
        body: JSON.stringify({ age_required: 18, callback_url: callbackUrl, double_blind: true }),
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
          if (typeof context.sessionId !== "string" || taken >= start + flows) return false;
          const token = pool.tokens[taken++]!;
          return {
            ...request,
            path: `${SESSION_PATH}/${context.sessionId}/complete`,
            headers: {
              "x-session-nonce": String(context.nonce),
              "content-type": "application/json",
              "cf-connecting-ip": nextPersonAddress(),
            },
            body: JSON.stringify({ consent: true, age_token: token }),
          };
        },
      },
    ],
  });
  pool.next.set(baseUrl, taken);
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = Number(count);
  const requests = Object.values(statusCodes).reduce((sum, n) => sum + n, 0);
  return {
    name: "double-blind",
    requests,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    statusCodes,
  };
}
