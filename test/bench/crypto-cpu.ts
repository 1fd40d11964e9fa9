// The CPU a request spends on the 1.2.0 proofs, timed one call at a time (docs/performance.md: "a digital-ID
// presentation verified and an anonymous token redeemed, each with its CPU time per request"): the
// service's own verifier on fresh answers from the test wallet, for each protocol and credential, and the
// service's own token verification and issuance on tokens from the RFC client of the tests. Web Crypto
// does the work here as in workerd (both on BoringSSL or OpenSSL), so the figures stand for the Worker's
// CPU per request. `npm run bench` runs this in its own process (--json); alone: npx tsx test/bench/crypto-cpu.ts
// First: the modules below read the Worker's build flags as they are evaluated.
import "./build-flags";
import { createDigitalIdRequest, parseTrustAnchors, verifyDigitalIdResponse } from "../../src/digital-id";
import { ageTokenChallenge, issueTokens, loadTokenKeys, verifyAgeToken } from "../../src/domain/age-tokens";
import { DEV_SETTING, fetchTokens } from "../age-tokens/helpers";
import { b64url, createTokenRequest } from "../age-tokens/rfc-client";
import { installWorkerdCrypto } from "./workerd-crypto";

// Node's modules and process, read untyped: this file type-checks with the Workers types (the root
// tsconfig), since it runs the service's own domain code.
const node = (name: string): Promise<any> => import(/* @vite-ignore */ name);
const [{ readFile }, { fileURLToPath }] = await Promise.all(["node:fs/promises", "node:url"].map(node));
const { argv } = (globalThis as unknown as { process: { argv: string[] } }).process;
import {
  EU_AGE,
  MDL,
  answer,
  documentSigner,
  issueMdoc,
  issueSdJwtVc,
  makeIssuer,
  sealAnnexC,
  testRoot,
  toPem,
  type DigitalRequest,
  type Mdoc,
  type SdJwtVc,
} from "../wallet";

export type CpuFigure = { label: string; p50Ms: number; p90Ms: number; rounds: number };

const WARM_UP = 3;
const ORIGIN = "https://age.example.test";
const text = async (path: string) => new TextDecoder().decode(await readFile(path));

/** p50 and p90 of `rounds` timed calls of `timed`, each after its own untimed `prepare`. */
async function timeEach<T>(
  label: string,
  rounds: number,
  prepare: () => Promise<T>,
  timed: (input: T) => Promise<void>,
): Promise<CpuFigure> {
  const times: number[] = [];
  for (let round = -WARM_UP; round < rounds; round++) {
    const input = await prepare();
    const started = performance.now();
    await timed(input);
    if (round >= 0) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { label, p50Ms: at(0.5), p90Ms: at(0.9), rounds };
}

/** One presentation verified, per protocol and credential (the /digital-id/response route's work). */
export async function measureDigitalIdCpu(rounds = 40): Promise<CpuFigure[]> {
  const rootPem = await text("test/wallet/test-iaca.pem");
  const root = await testRoot(rootPem, JSON.parse(await text("test/wallet/test-iaca-key.json")));
  const trustAnchors = parseTrustAnchors(rootPem);
  const signer = await documentSigner(root);
  const mdl = await issueMdoc({ kind: MDL, signer, ages: { 18: true } });
  const av = await issueMdoc({ kind: EU_AGE, signer, ages: { 18: true } });
  const sdJwt = await issueSdJwtVc({ signer, ages: { 18: true } });
  const cases = [
    ["digital ID: mDL over org-iso-mdoc (HPKE, Annex C)", mdl, "org-iso-mdoc"],
    ["digital ID: EU proof of age over org-iso-mdoc", av, "org-iso-mdoc"],
    ["digital ID: mDL over openid4vp-v1-unsigned (JWE)", mdl, "openid4vp-v1-unsigned"],
    ["digital ID: SD-JWT VC over openid4vp-v1-unsigned (JWE)", sdJwt, "openid4vp-v1-unsigned"],
  ] as const satisfies readonly (readonly [string, Mdoc | SdJwtVc, "org-iso-mdoc" | "openid4vp-v1-unsigned"])[];
  const figures: CpuFigure[] = [];
  for (const [label, credential, protocol] of cases) {
    figures.push(
      await timeEach(
        label,
        rounds,
        async () => {
          const { requests, pending } = await createDigitalIdRequest({ ageRequired: 18, appOrigin: ORIGIN, now: new Date() });
          return { pending, response: await answer(requests, credential, { origin: ORIGIN, protocol }) };
        },
        async ({ pending, response }) => {
          const outcome = await verifyDigitalIdResponse(response, {
            pending,
            ageRequired: 18,
            appOrigin: ORIGIN,
            trustAnchors,
            now: new Date(),
          });
          if (outcome.outcome !== "APPROVED") throw new Error(`${label}: ${JSON.stringify(outcome)}`);
        },
      ),
    );
  }
  return figures;
}

/**
 * The worst answers inside the bounds of docs/limits.md ("Per answer"), verified (a document of 16
 * items under a chain of four certificates, Annex C; an SD-JWT VC of 64 disclosures under the same
 * chain), and the two answers the bounds now refuse before any signature (38 copies of a document,
 * 44 KB of nested CBOR), timed beside the presentations above.
 */
export async function measureWorstBoundedCpu(rounds = 20): Promise<CpuFigure[]> {
  const root = await makeIssuer({ subject: "bench root", ca: true, pathLength: null });
  const trustAnchors = parseTrustAnchors(toPem(root.certificate));
  const first = await makeIssuer({ subject: "bench intermediate 1", issuer: root, ca: true, pathLength: null });
  const second = await makeIssuer({ subject: "bench intermediate 2", issuer: first, ca: true, pathLength: null });
  const third = await makeIssuer({ subject: "bench intermediate 3", issuer: second, ca: true, pathLength: null });
  const chainAfterSigner = [third.certificate, second.certificate, first.certificate];
  const otherElements = Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`element_${i}`, "x".repeat(32)]));
  const mdl = await issueMdoc({ kind: MDL, signer: await documentSigner(third), chainAfterSigner, ages: { 18: true }, otherElements });
  const ages = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [18 + i, true]));
  const sdJwt = await issueSdJwtVc({ signer: await documentSigner(third, { extendedKeyUsage: undefined }), chainAfterSigner, ages });
  const plain = await issueMdoc({ kind: MDL, signer: await documentSigner(root), ages: { 18: true } });
  const nested = [0xb9, 0x22, 0x60];
  for (let key = 0; key < 8800; key++) nested.push(0x19, key >> 8, key & 0xff, 0x81, 0x00);
  const cases = [
    [
      "worst bounded: mDL, 16 items, 4-certificate chain (Annex C)",
      async (requests: DigitalRequest[]) =>
        answer(requests, mdl, { origin: ORIGIN, disclose: ["age_over_18", ...Object.keys(otherElements)] }),
      "APPROVED",
    ],
    [
      "worst bounded: SD-JWT VC, 64 disclosures, 4-certificate chain",
      async (requests: DigitalRequest[]) => answer(requests, sdJwt, { origin: ORIGIN, disclose: Object.keys(ages) }),
      "APPROVED",
    ],
    [
      "refused before signatures: 38 copies of an mDL (Annex C)",
      async (requests: DigitalRequest[]) => answer(requests, plain, { origin: ORIGIN, copies: 38 }),
      "DIGITAL_ID_INVALID",
    ],
    [
      "refused before decoding: 44 KB of nested CBOR (Annex C)",
      async (requests: DigitalRequest[]) => sealAnnexC(requests[0]!, Uint8Array.from(nested), ORIGIN),
      "DIGITAL_ID_INVALID",
    ],
  ] as const;
  const figures: CpuFigure[] = [];
  for (const [label, respond, expected] of cases) {
    figures.push(
      await timeEach(
        label,
        rounds,
        async () => {
          const { requests, pending } = await createDigitalIdRequest({ ageRequired: 18, appOrigin: ORIGIN, now: new Date() });
          return { pending, response: await respond(requests) };
        },
        async ({ pending, response }) => {
          const result = await verifyDigitalIdResponse(response, {
            pending,
            ageRequired: 18,
            appOrigin: ORIGIN,
            trustAnchors,
            now: new Date(),
          }).then(
            (outcome) => outcome.outcome as string,
            (error: { code?: string }) => String(error.code),
          );
          if (result !== expected) throw new Error(`${label}: ${result}`);
        },
      ),
    );
  }
  return figures;
}

/**
 * An anonymous token redeemed (the /complete route's verification, before its one spend write), and a
 * batch of ten issued (the /api/age-tokens route's blind signatures), under the development keys.
 */
export async function measureAgeTokenCpu(rounds = 40): Promise<CpuFigure[]> {
  installWorkerdCrypto();
  const keys = await loadTokenKeys(DEV_SETTING);
  const challenge = ageTokenChallenge(ORIGIN);
  const publicKey = keys.find((k) => k.ageOver === 18 && k.role === "current")!.publicKey;
  const redeem = await timeEach(
    "age token: one redeemed (RSA-PSS verify, RFC 9578)",
    rounds,
    async () => (await fetchTokens(keys, 18, challenge))[0]!,
    async (token) => {
      const verified = await verifyAgeToken(token, { keys, expectedChallenge: challenge, ageRequired: 18 });
      if (verified.ageOver !== 18) throw new Error("age token: wrong threshold");
    },
  );
  const issue = await timeEach(
    "age token: a batch of 10 issued (blind RSA signatures)",
    Math.max(10, rounds >> 2),
    async () => Promise.all(Array.from({ length: 10 }, async () => b64url((await createTokenRequest(challenge, publicKey)).tokenRequest))),
    async (requests) => {
      if ((await issueTokens(keys, 18, requests)).length !== 10) throw new Error("age token: short batch");
    },
  );
  return [redeem, issue];
}

if (argv[1] === fileURLToPath((import.meta as unknown as { url: string }).url)) {
  const figures = [...(await measureDigitalIdCpu()), ...(await measureWorstBoundedCpu()), ...(await measureAgeTokenCpu())];
  // --json for npm run bench, which runs this in its own process; a Markdown table otherwise.
  if (argv.includes("--json")) console.log(JSON.stringify(figures));
  else for (const f of figures) console.log(`| ${f.label} | ${f.p50Ms.toFixed(2)} ms | ${f.p90Ms.toFixed(2)} ms | ${f.rounds} |`);
}
