// Structural mutations of valid mdoc answers (ISO/IEC TS 18013-7 Annex C and OpenID4VP 1.0), each of
// which must be refused: 422 DIGITAL_ID_INVALID or DIGITAL_ID_INSUFFICIENT, never an outcome and never
// another exception (a 500, which the five-failure cap would not count). Thousands per protocol through
// the inner check (verifyDeviceResponse and the outcome rule, on the decrypted DeviceResponse), and a
// sample re-sealed to the session's key through the full check the route calls. Runs in Node: the
// verifier is plain TypeScript on Web Crypto. DIGITAL_ID_MUTATIONS sets the cases per protocol.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { Tag, encode } from "../wallet/cbor";
import { deviceResponse } from "../wallet/mdoc";
import {
  anchors,
  annexCTranscriptOf,
  issueEuAge,
  issueMdl,
  judgeMdoc,
  judgeSealed,
  newSession,
  openId4VpTranscriptOf,
  presentMdoc,
  sealAnnexC,
  sealOpenId4Vp,
  base64url,
  type MdocAnswer,
  type Session,
} from "./digital-id/answers";
import { MDOC_OPERATORS, mdocMutant, ACCEPTED_BY_DECISION, type MdocContext, type Mutant } from "./digital-id/mdoc-mutations";
import { forEachDraw, judge, MUTATION_RUNS, SEALED_RUNS, Tally } from "./digital-id/refusal";

// Credentials are issued and answers verified on Web Crypto: seconds, not milliseconds, on a loaded machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const trust = anchors();

type Protocol = { name: "annex-c" | "openid4vp"; transcript: (session: Session) => Promise<unknown>; onlyDocType?: string };
const PROTOCOLS: Protocol[] = [
  { name: "annex-c", transcript: annexCTranscriptOf },
  { name: "openid4vp", transcript: openId4VpTranscriptOf, onlyDocType: "org.iso.18013.5.1.mDL" },
];

type Fixture = { session: Session; answer: MdocAnswer; context: MdocContext };

async function fixture(protocol: Protocol): Promise<Fixture> {
  const session = await newSession();
  const other = await newSession();
  const mdl = await issueMdl();
  const anotherMdl = await issueMdl();
  const euAge = await issueEuAge();
  const transcript = await protocol.transcript(session);
  const answer = await presentMdoc(mdl, transcript, protocol.onlyDocType);
  const otherProtocol = PROTOCOLS.find((p) => p !== protocol)!;
  const deviceNameSpaces = new Tag(encode(new Map()), 24);
  const donors = [
    { label: "another session (same credential)", bytes: (await presentMdoc(mdl, await protocol.transcript(other))).bytes },
    {
      label: "the other protocol (same credential, same session)",
      bytes: (await presentMdoc(mdl, await otherProtocol.transcript(session))).bytes,
    },
    { label: "another credential (another device key)", bytes: (await presentMdoc(anotherMdl, transcript)).bytes, sameSession: true },
    { label: "another document signer", bytes: (await presentMdoc(await issueMdl(), transcript)).bytes, sameSession: true },
    {
      label: "another doctype (EU age)",
      bytes: await deviceResponse(euAge, await protocol.transcript(other), { disclose: ["age_over_18"] }),
    },
  ];
  return {
    session,
    answer,
    context: {
      valid: answer.bytes,
      deviceAuthenticationBytes: encode(new Tag(encode(["DeviceAuthentication", transcript, mdl.docType, deviceNameSpaces]), 24)),
      donors,
    },
  };
}

/** Asserts the verdict on one mutant and counts it; a class accepted by decision (ACCEPTED_BY_DECISION) may pass. */
function expectRefused(mutant: Mutant, verdict: Awaited<ReturnType<typeof judge>>, tally: Tally) {
  if (verdict.kind === "accepted" && mutant.pending !== undefined && mutant.pending in ACCEPTED_BY_DECISION) {
    tally.add(mutant.label, `accepted, by decision (${ACCEPTED_BY_DECISION[mutant.pending]})`);
    return;
  }
  if (verdict.kind === "crashed" && "parse-exception" in ACCEPTED_BY_DECISION) {
    tally.add(mutant.label, `crashed, by decision (${ACCEPTED_BY_DECISION["parse-exception"]})`);
    return;
  }
  tally.add(mutant.label, verdict.kind === "refused" ? verdict.code : verdict.kind);
  if (verdict.kind === "crashed") throw new Error(`${mutant.label}: threw a non-ApiError ${String(verdict.error)}`);
  expect(verdict, mutant.label).toMatchObject({ kind: "refused" });
}

describe.each(PROTOCOLS)("mdoc answers of $name under structural mutation", (protocol) => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await fixture(protocol);
  });

  it("the valid answer approves, through the inner check and the sealed path (the mutations start from a genuine answer)", async () => {
    expect(await judgeMdoc(fx.answer.bytes, fx.answer, new Date())).toStrictEqual({ outcome: "APPROVED" });
    const sealed =
      protocol.name === "annex-c"
        ? await sealAnnexC(fx.session, fx.answer.bytes)
        : await sealOpenId4Vp(fx.session, { mdl: [base64url(fx.answer.bytes)] });
    expect(await judgeSealed(fx.session, sealed, new Date())).toStrictEqual({ outcome: "APPROVED" });
  });

  it(`${MUTATION_RUNS} mutations of every signed or bound part are each refused (DeviceResponse, inner check)`, {
    timeout: Math.max(600_000, MUTATION_RUNS * 30),
  }, async () => {
    const tally = new Tally();
    const now = new Date();
    await forEachDraw(mdocMutant(fx.context), MUTATION_RUNS, async (mutant) => {
      if (!mutant) return;
      expectRefused(mutant, await judge(judgeMdoc(mutant.bytes, fx.answer, now, trust)), tally);
    });
    await tally.write(`mdoc-${protocol.name}`);
    // Every operator ran, and each was refused (or is a class accepted by decision): an engine that breaks nothing proves nothing.
    expect(Object.keys(tally.counts).sort()).toStrictEqual([...MDOC_OPERATORS].sort());
    for (const [operator, row] of Object.entries(tally.counts))
      expect(
        Object.keys(row).every((result) => result.startsWith("DIGITAL_ID_") || /^(accepted|crashed), by decision/.test(result)),
        operator,
      ).toBe(true);
  });

  it(`${SEALED_RUNS} mutations re-sealed to the session's key are each refused through the full check`, { timeout: 300_000 }, async () => {
    const tally = new Tally();
    const now = new Date();
    await forEachDraw(mdocMutant(fx.context), SEALED_RUNS, async (mutant) => {
      if (!mutant) return;
      const sealed =
        protocol.name === "annex-c"
          ? await sealAnnexC(fx.session, mutant.bytes)
          : await sealOpenId4Vp(fx.session, { mdl: [base64url(mutant.bytes)] });
      expectRefused(mutant, await judge(judgeSealed(fx.session, sealed, now, trust)), tally);
    });
  });
});
