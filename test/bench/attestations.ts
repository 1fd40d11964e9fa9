// Proof-of-age issuance in `npm run bench` (docs/attestations.md): the credential request, POST /credential
// with a batch of 30 proofs of possession, each answered with an attestation signed for its key. Each
// request spends an access token and a c_nonce, so before each round's run (outside its measurement) a
// pool is made on each server: on the service through its own routes, as a wallet gets them (an offer
// from the person's account, the token for its pre-authorized code and transaction code, a nonce); on the
// floor, rows the floor finds (POST /floor/attestation-grants). The proofs are signed here, 30 device keys
// made once, each proof naming its server as audience and the flow's nonce. The floor's POST /credential
// makes the service's three D1 statements and its signature work (test/bench/floor/worker.ts).
// Reported: CPU per attestation issued (the CPU per request ÷ 30), and the wall time of one batch of 30
// sent alone, one request at a time (measureBatchWallTime).
import autocannon from "autocannon";
import { apiClient, expectStatus } from "../tools/api-client";
import type { Fixtures } from "./prepare";
import { median } from "./figures";
import { groupCpuSeconds } from "./process-cpu";
import { nextPersonAddress, type Load, type Measured } from "./scenarios";

/** Proofs, so attestations, per credential request: the batch size the service allows (src/domain/attestations/metadata.ts). */
export const ATTESTATIONS_PER_REQUEST = 30;
/**
 * Credential requests per measurement at most. Each is one batch against the account's
 * ATTESTATION_BATCHES_PER_DAY (1000 in development): 40 a round keeps a long bench well inside it.
 */
export const ATTESTATION_FLOWS_PER_RUN = 40;
/** Sequential batches timed for the wall time, after one warm-up. */
export const WALL_TIME_BATCHES = 5;

const PRE_AUTHORIZED_GRANT = "urn:ietf:params:oauth:grant-type:pre-authorized_code";

/** One credential request, ready to send: its access token and its body (30 proofs bound to a fresh nonce). */
type Flow = { accessToken: string; body: string };
export type AttestationPool = { flows: Flow[] };

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const jsonPart = (value: unknown) => b64url(new TextEncoder().encode(JSON.stringify(value)));

type DeviceKey = { privateKey: CryptoKey; jwk: { kty: string; crv: string; x: string; y: string } };
let deviceKeys: Promise<DeviceKey[]> | undefined;
/** 30 P-256 device keys, made once: the service's work per proof is the same whether a key is new or not. */
function keys(): Promise<DeviceKey[]> {
  deviceKeys ??= Promise.all(
    Array.from({ length: ATTESTATIONS_PER_REQUEST }, async () => {
      const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
      const { kty, crv, x, y } = (await crypto.subtle.exportKey("jwk", pair.publicKey)) as JsonWebKey;
      return { privateKey: pair.privateKey, jwk: { kty: kty!, crv: crv!, x: x!, y: y! } };
    }),
  );
  return deviceKeys;
}

/** The body of one credential request: a proof per device key, each naming `issuer` and `nonce` (OpenID4VCI 1.0 Appendix F.1). */
async function credentialRequest(issuer: string, nonce: string): Promise<string> {
  const iat = Math.floor(Date.now() / 1000);
  const jwts = await Promise.all(
    (await keys()).map(async ({ privateKey, jwk }) => {
      const input = `${jsonPart({ typ: "openid4vci-proof+jwt", alg: "ES256", jwk })}.${jsonPart({ aud: issuer, iat, nonce })}`;
      const signature = new Uint8Array(
        await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, privateKey, new TextEncoder().encode(input)),
      );
      return `${input}.${b64url(signature)}`;
    }),
  );
  return JSON.stringify({ credential_configuration_id: "proof_of_age", proofs: { jwt: jwts } });
}

const post = (url: string, init: { headers?: Record<string, string>; body?: string }) =>
  fetch(url, {
    method: "POST",
    ...init,
    headers: { "cf-connecting-ip": nextPersonAddress(), ...init.headers },
    signal: AbortSignal.timeout(30_000),
  });

/** One access token and one nonce from the service, as a wallet gets them after the person's offer. */
async function serviceGrants(baseUrl: string, fixtures: Fixtures): Promise<{ accessToken: string; nonce: string }> {
  const offer = await apiClient(baseUrl)("POST", "/api/attestations/offers", { token: fixtures.userToken, body: {} });
  expectStatus(offer, 201);
  const exchanged = await post(`${baseUrl}/token`, {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: PRE_AUTHORIZED_GRANT,
      "pre-authorized_code": offer.body.data.credential_offer.grants[PRE_AUTHORIZED_GRANT]["pre-authorized_code"],
      tx_code: offer.body.data.tx_code,
    }).toString(),
  });
  if (exchanged.status !== 200) throw new Error(`POST /token: ${exchanged.status} ${await exchanged.text()}`);
  const nonced = await post(`${baseUrl}/nonce`, {});
  if (nonced.status !== 200) throw new Error(`POST /nonce: ${nonced.status} ${await nonced.text()}`);
  return {
    accessToken: ((await exchanged.json()) as { access_token: string }).access_token,
    nonce: ((await nonced.json()) as { c_nonce: string }).c_nonce,
  };
}

/** `count` pairs of an access token and a nonce the floor's POST /credential finds. */
async function floorGrants(floorUrl: string, count: number): Promise<{ accessToken: string; nonce: string }[]> {
  const res = await post(`${floorUrl}/floor/attestation-grants`, {
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ count }),
  });
  if (res.status !== 201) throw new Error(`POST /floor/attestation-grants: ${res.status}`);
  return ((await res.json()) as { grants: { accessToken: string; nonce: string }[] }).grants;
}

/**
 * A pool of `count` credential requests for one server, made now (tokens and nonces live five minutes,
 * a proof's iat must be within five minutes): before each measurement, never inside it.
 */
export async function attestationPool(
  target: { baseUrl: string; fixtures: Fixtures; isFloor: boolean },
  count: number,
): Promise<AttestationPool> {
  const grants: { accessToken: string; nonce: string }[] = [];
  if (target.isFloor) grants.push(...(await floorGrants(target.baseUrl, count)));
  // Five at a time: the service's account limits and D1 writes, not a load test.
  else
    for (let i = 0; i < count; i += 5)
      grants.push(
        ...(await Promise.all(Array.from({ length: Math.min(5, count - i) }, () => serviceGrants(target.baseUrl, target.fixtures)))),
      );
  const flows = await Promise.all(
    grants.map(async ({ accessToken, nonce }) => ({ accessToken, body: await credentialRequest(target.baseUrl, nonce) })),
  );
  return { flows };
}

const credentialHeaders = (flow: Flow) => ({
  authorization: `Bearer ${flow.accessToken}`,
  "content-type": "application/json",
  "cf-connecting-ip": nextPersonAddress(),
});

/** The pool's credential requests under the bench's load, each sent once; every answer must hold 30 attestations. */
export async function measureAttestations(baseUrl: string, load: Load, pool: AttestationPool): Promise<Measured> {
  let taken = 0;
  let short = 0;
  const result = await autocannon({
    url: baseUrl,
    ...load,
    amount: pool.flows.length,
    requests: [
      {
        method: "POST",
        setupRequest(request) {
          const flow = pool.flows[taken++];
          if (!flow) return false;
          return { ...request, path: "/credential", headers: credentialHeaders(flow), body: flow.body };
        },
        onResponse(status, body) {
          if (status === 200 && (JSON.parse(body) as { credentials?: unknown[] }).credentials?.length !== ATTESTATIONS_PER_REQUEST) short++;
        },
      },
    ],
  });
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = Number(count);
  const requests = Object.values(statusCodes).reduce((sum, n) => sum + n, 0);
  // The run ends when the pool is spent (amount), after a few seconds: autocannon's average of whole
  // seconds' counts would read both servers alike, so throughput is the requests over the run's duration.
  return {
    name: "attestations",
    requests,
    rps: requests / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + short,
    statusCodes,
  };
}

/**
 * One batch of 30 sent alone, `batches` times one after another after one warm-up: each request's wall time,
 * and, given the server's process group, the CPU its Worker's workerd process spent per attestation over
 * all of them (Linux /proc counts clock ticks of 10 ms: about one per batch, so the sum over the batches,
 * not a batch's own count, is the figure).
 */
export async function measureBatchWallTime(
  target: { baseUrl: string; fixtures: Fixtures; isFloor: boolean; processGroup?: number },
  batches = WALL_TIME_BATCHES,
): Promise<{ medianMs: number; runsMs: number[]; workerCpuMsPerAttestation: number }> {
  const { flows } = await attestationPool(target, batches + 1);
  const workerCpu = () => (target.processGroup ? (groupCpuSeconds(target.processGroup).get("workerd (Worker)") ?? NaN) : NaN);
  const runsMs: number[] = [];
  let cpuBefore = NaN;
  for (const [i, flow] of flows.entries()) {
    if (i === 1) cpuBefore = workerCpu();
    const started = performance.now();
    const res = await post(`${target.baseUrl}/credential`, { headers: credentialHeaders(flow), body: flow.body });
    const issued = ((await res.json()) as { credentials?: unknown[] }).credentials?.length;
    const wall = performance.now() - started;
    if (res.status !== 200 || issued !== ATTESTATIONS_PER_REQUEST)
      throw new Error(`POST /credential on ${target.baseUrl}: ${res.status}, ${issued} attestations`);
    if (i > 0) runsMs.push(wall);
  }
  return {
    medianMs: median(runsMs),
    runsMs,
    workerCpuMsPerAttestation: ((workerCpu() - cpuBefore) * 1000) / (batches * ATTESTATIONS_PER_REQUEST),
  };
}
