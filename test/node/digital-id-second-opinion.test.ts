// A second opinion on the same answers: each valid answer and a sample of the structural mutations
// (test/node/digital-id/*-mutations.ts, fixed seed) judged by the service and by independent libraries
// (@auth0/mdl for mdocs, @sd-jwt/sd-jwt-vc with jose for SD-JWT VCs; test/node/digital-id/second-opinion.ts).
// The service must never approve what the second opinion refuses (but for the classes accepted by decision,
// ACCEPTED_BY_DECISION); where the library approves what the service refuses, the difference
// must be one of those explained in docs/digital-id.md ("Second opinion"), listed below.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Tag, encode } from "../wallet/cbor";
import {
  anchors,
  annexCTranscriptOf,
  issueMdl,
  issueSdJwt,
  judgeMdoc,
  judgeSdJwt,
  newSession,
  openId4VpTranscriptOf,
  presentMdoc,
  presentSdJwt,
  type Session,
} from "./digital-id/answers";
import { ACCEPTED_BY_DECISION, mdocMutant, type MdocContext } from "./digital-id/mdoc-mutations";
import { judge } from "./digital-id/refusal";
import { auth0Mdl, sdJwtVcLibrary, type Opinion } from "./digital-id/second-opinion";
import { makeSdJwtMutant, sdJwtMutant, type SdJwtContext } from "./digital-id/sd-jwt-mutations";

// Credentials are issued and answers verified on Web Crypto: seconds, not milliseconds, on a loaded machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const environment = (globalThis as unknown as { process: NodeLikeProcess }).process;
type NodeLikeProcess = {
  env: Record<string, string | undefined>;
  listeners(event: string): ((...args: unknown[]) => void)[];
  removeAllListeners(event: string): void;
  on(event: string, listener: (...args: unknown[]) => void): void;
};
const CASES = Number(environment.env.DIGITAL_ID_SECOND_OPINION ?? 400);
const SEED = 49;

/** Where @auth0/mdl approves what the service refuses, and why the service is right to refuse (docs/digital-id.md, "Second opinion"). */
const MDOC_EXPLAINED: [RegExp, string][] = [
  [/^fillNilPayload/, "the device signature's payload slot is ignored by @auth0/mdl; the service requires it nil"],
  [/^duplicateKey/, "a repeated map key: @auth0/mdl's decoder keeps one, the service refuses the map"],
  [/^dropKey: drop (status|version)$/, "the DeviceResponse without status or version: @auth0/mdl does not require them"],
  [
    /^duplicateElement: duplicate element documents\.0\.(issuerSigned\.issuerAuth|deviceSigned\.deviceAuth\.deviceSignature)\.\d$/,
    "a COSE_Sign1 of five elements: @auth0/mdl reads the first four",
  ],
  [/^duplicateElement: duplicate element documents\.0\.issuerSigned\.nameSpaces\./, "an issuer-signed item disclosed twice"],
  [
    /^(changeTag|changeType|moveHeader|reorderElements): /,
    "a value of another CBOR type or tag where the structure names one (the protected header as a map, a tag around a value, null for a map): @auth0/mdl is lenient",
  ],
  [/^flipAnywhere: xor byte ([0-9]|1[0-5]) /, "a change in the DeviceResponse's own keys or version"],
  [
    /^appendDocument: a second document/,
    "a second document of a doctype already answered: the service verifies at most one document per doctype asked (docs/digital-id.md, Work per answer); @auth0/mdl verifies each",
  ],
  [
    /^indefiniteLength: /,
    "an indefinite-length CBOR item: the service requires definite lengths (docs/digital-id.md, Work per answer); @auth0/mdl's decoder reads both",
  ],
  [
    /^replaceValue: replace .* by a float$/,
    "a float where an integer belongs: the service never reads 0.0 or -0.0 as an integer; @auth0/mdl's decoder does",
  ],
  [
    /^nonMinimalDer: /,
    "a non-minimal DER INTEGER in a certificate's signature: the service requires strict DER; @auth0/mdl's X.509 parser accepts it",
  ],
  [
    /^flipSignedSpan: .* in documents\.0\.deviceSigned\.nameSpaces$/,
    "@auth0/mdl re-encodes the device namespaces it decoded instead of verifying over the bytes received",
  ],
];
const SD_JWT_EXPLAINED: [RegExp, string][] = [
  [/^nonCanonicalBase64: the key-binding signature/, "a signature in non-canonical base64url: the same bytes under another spelling"],
];

type Disagreement = { label: string; ours: Opinion; theirs: Opinion; pending?: string };
const explanation = (table: [RegExp, string][], label: string) => table.find(([pattern]) => pattern.test(label))?.[1];

// @auth0/mdl leaves a rejected promise unawaited on some malformed items (its verifyData); while it is
// judged, such a rejection is its refusal, not this run's error.
let savedListeners: ((...args: unknown[]) => void)[] = [];
beforeAll(() => {
  savedListeners = environment.listeners("unhandledRejection");
  environment.removeAllListeners("unhandledRejection");
  environment.on("unhandledRejection", () => {});
});
afterAll(async () => {
  await new Promise((resolve) => setTimeout(resolve, 50));
  environment.removeAllListeners("unhandledRejection");
  for (const listener of savedListeners) environment.on("unhandledRejection", listener);
});

describe.each([
  { name: "annex-c", transcript: annexCTranscriptOf, onlyDocType: undefined },
  { name: "openid4vp", transcript: openId4VpTranscriptOf, onlyDocType: "org.iso.18013.5.1.mDL" },
])("mdoc ($name): the service and @auth0/mdl", ({ transcript: transcriptOf, onlyDocType }) => {
  let session: Session;
  let context: MdocContext;
  let transcript: unknown;
  beforeAll(async () => {
    session = await newSession();
    const mdl = await issueMdl();
    transcript = await transcriptOf(session);
    const valid = (await presentMdoc(mdl, transcript)).bytes;
    context = {
      valid,
      deviceAuthenticationBytes: encode(
        new Tag(encode(["DeviceAuthentication", transcript, mdl.docType, new Tag(encode(new Map()), 24)]), 24),
      ),
      donors: [
        { label: "another session", bytes: (await presentMdoc(mdl, await transcriptOf(await newSession()))).bytes },
        { label: "another credential", bytes: (await presentMdoc(await issueMdl(), transcript)).bytes, sameSession: true },
      ],
    };
  });

  it(`agree on the valid answer, and on ${CASES} mutations but for the explained differences`, { timeout: 300_000 }, async () => {
    const answer = { bytes: context.valid, transcript, onlyDocType };
    const now = new Date();
    expect(await auth0Mdl(context.valid, transcript, onlyDocType)).toBe("APPROVED");
    expect(await judgeMdoc(context.valid, answer, now)).toStrictEqual({ outcome: "APPROVED" });
    const trust = anchors();
    const disagreements: Disagreement[] = [];
    for (const mutant of fc.sample(mdocMutant(context), { numRuns: CASES, seed: SEED })) {
      if (!mutant) continue;
      const ours: Opinion = (await judge(judgeMdoc(mutant.bytes, answer, now, trust))).kind === "accepted" ? "APPROVED" : "refused";
      const theirs = await auth0Mdl(mutant.bytes, transcript, onlyDocType);
      if (ours !== theirs) disagreements.push({ label: mutant.label, ours, theirs, pending: mutant.pending });
    }
    expect(
      disagreements.filter((d) => d.ours === "APPROVED" && !(d.pending !== undefined && d.pending in ACCEPTED_BY_DECISION)),
    ).toStrictEqual([]);
    expect(disagreements.filter((d) => d.theirs === "APPROVED" && !explanation(MDOC_EXPLAINED, d.label))).toStrictEqual([]);
  });
});

describe("SD-JWT VC (OpenID4VP): the service and @sd-jwt/sd-jwt-vc with jose", () => {
  let context: SdJwtContext;
  beforeAll(async () => {
    const session = await newSession();
    const credential = await issueSdJwt();
    const answer = await presentSdJwt(credential, session);
    const attacker = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"])) as CryptoKeyPair;
    context = {
      valid: answer.presentation,
      binding: answer.binding,
      attackerKey: attacker.privateKey,
      donors: [
        { label: "another session (same credential)", presentation: (await presentSdJwt(credential, await newSession())).presentation },
        { label: "another credential", presentation: (await presentSdJwt(await issueSdJwt(), session)).presentation, sameSession: true },
      ],
    };
  });

  it(`agree on the valid presentation, and on ${CASES} mutations but for the explained differences`, { timeout: 300_000 }, async () => {
    const now = new Date();
    const answer = { presentation: context.valid, binding: context.binding };
    expect(await sdJwtVcLibrary(context.valid, context.binding, now)).toBe("APPROVED");
    expect(await judgeSdJwt(context.valid, answer, now)).toStrictEqual({ outcome: "APPROVED" });
    const trust = anchors();
    const disagreements: Disagreement[] = [];
    for (const drawn of fc.sample(sdJwtMutant(context), { numRuns: CASES, seed: SEED })) {
      const mutant = await makeSdJwtMutant(context, drawn);
      if (!mutant) continue;
      const ours: Opinion = (await judge(judgeSdJwt(mutant.presentation, answer, now, trust))).kind === "accepted" ? "APPROVED" : "refused";
      const theirs = await sdJwtVcLibrary(mutant.presentation, context.binding, now);
      if (ours !== theirs) disagreements.push({ label: mutant.label, ours, theirs, pending: mutant.pending });
    }
    expect(
      disagreements.filter((d) => d.ours === "APPROVED" && !(d.pending !== undefined && d.pending in ACCEPTED_BY_DECISION)),
    ).toStrictEqual([]);
    expect(disagreements.filter((d) => d.theirs === "APPROVED" && !explanation(SD_JWT_EXPLAINED, d.label))).toStrictEqual([]);
  });
});
