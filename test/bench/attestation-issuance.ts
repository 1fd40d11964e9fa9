// `npx tsx test/bench/attestation-issuance.ts [--rounds 5] [--batch 30]`: the credential request of
// proof-of-age issuance (docs/attestations.md) against a local `wrangler dev` of this checkout: for each
// round, a verified adult's offer, the token, a nonce, then one POST /credential with `--batch` proofs;
// it reports the request's wall time and the CPU the Worker's workerd process spent on it, per
// attestation issued (Linux /proc, test/bench/process-cpu.ts). The first round warms the isolate and is
// left out. A measurement of this route alone, outside `npm run bench`.
import { parseArgs } from "node:util";
import { apiClient, expectStatus } from "../tools/api-client";
import { startDevServer } from "../tools/dev-server.mjs";
import { groupCpuSeconds } from "./process-cpu";
import { median } from "./figures";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "5" }, batch: { type: "string", default: "30" } } });
const rounds = Number(values.rounds);
const batch = Number(values.batch);

const b64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const json = (value: unknown) => b64url(new TextEncoder().encode(JSON.stringify(value)));

async function proof(issuer: string, nonce: string): Promise<string> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const { kty, crv, x, y } = (await crypto.subtle.exportKey("jwk", pair.publicKey)) as JsonWebKey;
  const input = `${json({ typ: "openid4vci-proof+jwt", alg: "ES256", jwk: { kty, crv, x, y } })}.${json({ aud: issuer, iat: Math.floor(Date.now() / 1000), nonce })}`;
  const signature = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, pair.privateKey, new TextEncoder().encode(input)));
  return `${input}.${b64url(signature)}`;
}

const workerCpu = (group: number) => groupCpuSeconds(group).get("workerd (Worker)") ?? Number.NaN;

const server = await startDevServer({ name: "attestation-bench", devTools: false });
try {
  const api = apiClient(server.baseUrl, 60_000);
  const email = `bench-${Date.now()}@example.test`;
  const registered = await api("POST", "/api/auth/register", { body: { email, password: "correct horse battery", firstName: "Ada", lastName: "Lovelace", userType: "PERSONAL" } });
  expectStatus(registered, 201);
  const token = registered.body.data.token as string;
  const outbox = await api("GET", `/api/dev/outbox?to=${encodeURIComponent(email)}`);
  const mailed = /[?&]token=([^\s&]+)/.exec(outbox.body.data.messages[0]?.text ?? "")?.[1];
  expectStatus(await api("POST", "/api/auth/verify-email", { body: { token: decodeURIComponent(mailed!) } }), 200);
  expectStatus(await api("POST", "/api/kyc/create-applicant", { token, body: { firstName: "Ada", lastName: "Lovelace", dob: "1990-04-02" } }), 201);
  expectStatus(await api("POST", "/api/kyc/sandbox/complete", { token, body: { result: "clear" } }), 200);
  const issuer = ((await api("GET", "/.well-known/openid-credential-issuer")).body as { credential_issuer: string }).credential_issuer;

  const walls: number[] = [];
  const cpuPerAttestation: number[] = [];
  for (let round = 0; round <= rounds; round++) {
    const offer = await api("POST", "/api/attestations/offers", { token, body: {} });
    expectStatus(offer, 201);
    const code = offer.body.data.credential_offer.grants["urn:ietf:params:oauth:grant-type:pre-authorized_code"]["pre-authorized_code"];
    const exchanged = await fetch(`${server.baseUrl}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:pre-authorized_code", "pre-authorized_code": code, tx_code: offer.body.data.tx_code }),
    });
    const accessToken = ((await exchanged.json()) as { access_token: string }).access_token;
    const nonce = ((await (await fetch(`${server.baseUrl}/nonce`, { method: "POST" })).json()) as { c_nonce: string }).c_nonce;
    const jwts = await Promise.all(Array.from({ length: batch }, () => proof(issuer, nonce)));
    const body = JSON.stringify({ credential_configuration_id: "proof_of_age", proofs: { jwt: jwts } });
    const cpuBefore = workerCpu(server.processGroup);
    const started = performance.now();
    const res = await fetch(`${server.baseUrl}/credential`, { method: "POST", headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/json" }, body });
    const issued = ((await res.json()) as { credentials: unknown[] }).credentials;
    const wall = performance.now() - started;
    const cpu = workerCpu(server.processGroup) - cpuBefore;
    if (res.status !== 200 || issued.length !== batch) throw new Error(`round ${round}: ${res.status}`);
    if (round === 0) continue;
    walls.push(wall);
    cpuPerAttestation.push((cpu * 1000) / batch);
  }
  console.log(`POST /credential, ${batch} proofs, ${rounds} rounds after one warm-up:`);
  console.log(`  wall time of the request: median ${median(walls).toFixed(1)} ms (${walls.map((w) => w.toFixed(0)).join(", ")})`);
  console.log(`  Worker CPU per attestation issued: median ${median(cpuPerAttestation).toFixed(2)} ms (${cpuPerAttestation.map((c) => c.toFixed(2)).join(", ")}; clock ticks of 10 ms over the whole request)`);
} finally {
  await server.stop();
}
