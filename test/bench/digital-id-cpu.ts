// Digital-ID verification cost (issue 31: "the verification's CPU time per presentation"): the test
// wallet answers fresh requests and the service's verifier checks each answer, timed one by one, for
// each protocol and credential. Web Crypto does the work here as in workerd (both on BoringSSL or
// OpenSSL), so the figures stand for the Worker's CPU time per response. Run: npx tsx test/bench/digital-id-cpu.ts
import { readFile } from "node:fs/promises";
import { createDigitalIdRequest, parseTrustAnchors, verifyDigitalIdResponse } from "../../src/domain/digital-id";
import { EU_AGE, MDL, answer, documentSigner, issueMdoc, issueSdJwtVc, testRoot, type Mdoc, type SdJwtVc } from "../wallet";

const ROUNDS = 40;
const WARM_UP = 3;
const ORIGIN = "https://age.example.test";
const text = async (path: string) => new TextDecoder().decode(await readFile(path));

const rootPem = await text("test/wallet/test-iaca.pem");
const root = await testRoot(rootPem, JSON.parse(await text("test/wallet/test-iaca-key.json")));
const trustAnchors = parseTrustAnchors(rootPem);
const signer = await documentSigner(root);

async function measure(label: string, credential: Mdoc | SdJwtVc, protocol: "org-iso-mdoc" | "openid4vp-v1-unsigned") {
  const times: number[] = [];
  let pendingBytes = 0;
  for (let round = -WARM_UP; round < ROUNDS; round++) {
    const { requests, pending } = await createDigitalIdRequest({ ageRequired: 18, appOrigin: ORIGIN, now: new Date() });
    pendingBytes = JSON.stringify(pending).length;
    const response = await answer(requests, credential, { origin: ORIGIN, protocol });
    const started = performance.now();
    const outcome = await verifyDigitalIdResponse(response, { pending, ageRequired: 18, appOrigin: ORIGIN, trustAnchors, now: new Date() });
    if (round >= 0) times.push(performance.now() - started);
    if (outcome.outcome !== "APPROVED") throw new Error(`${label}: ${JSON.stringify(outcome)}`);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(2);
  console.log(`| ${label} | ${at(0.5)} ms | ${at(0.9)} ms | ${pendingBytes} B |`);
}

console.log(`| presentation (${ROUNDS} rounds after ${WARM_UP} warm-up) | p50 | p90 | pending state |`);
console.log("|---|---|---|---|");
const mdl = await issueMdoc({ kind: MDL, signer, ages: { 18: true } });
const av = await issueMdoc({ kind: EU_AGE, signer, ages: { 18: true } });
const sdJwt = await issueSdJwtVc({ signer, ages: { 18: true } });
for (const [label, credential, protocol] of [
  ["mDL over org-iso-mdoc (HPKE, Annex C)", mdl, "org-iso-mdoc"],
  ["EU proof of age over org-iso-mdoc", av, "org-iso-mdoc"],
  ["mDL over openid4vp-v1-unsigned (JWE)", mdl, "openid4vp-v1-unsigned"],
  ["SD-JWT VC over openid4vp-v1-unsigned (JWE)", sdJwt, "openid4vp-v1-unsigned"],
] as const) {
  await measure(label, credential, protocol);
}
