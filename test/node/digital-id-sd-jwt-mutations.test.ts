// Structural mutations of a valid OpenID4VP SD-JWT VC presentation, each of which must be refused: 422
// DIGITAL_ID_INVALID or DIGITAL_ID_INSUFFICIENT, never an outcome and never another exception.
// Thousands through the inner check (verifySdJwtVc and the outcome rule), and a sample encrypted to the
// session's key through the full check the route calls. DIGITAL_ID_MUTATIONS sets the cases.
import { beforeAll, describe, expect, it, vi } from "vitest";
import {
  anchors,
  issueSdJwt,
  judgeSdJwt,
  judgeSealed,
  newSession,
  presentSdJwt,
  sealOpenId4Vp,
  type SdJwtAnswer,
  type Session,
} from "./digital-id/answers";
import { ACCEPTED_BY_DECISION } from "./digital-id/mdoc-mutations";
import { forEachDraw, judge, MUTATION_RUNS, SEALED_RUNS, Tally } from "./digital-id/refusal";
import { makeSdJwtMutant, SD_JWT_OPERATORS, sdJwtMutant, type SdJwtContext, type SdJwtMutant } from "./digital-id/sd-jwt-mutations";

// Credentials are issued and answers verified on Web Crypto: seconds, not milliseconds, on a loaded machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const trust = anchors();

function expectRefused(mutant: SdJwtMutant, verdict: Awaited<ReturnType<typeof judge>>, tally: Tally) {
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

describe("SD-JWT VC presentations (OpenID4VP) under structural mutation", () => {
  let session: Session;
  let answer: SdJwtAnswer;
  let context: SdJwtContext;
  beforeAll(async () => {
    session = await newSession();
    const credential = await issueSdJwt();
    answer = await presentSdJwt(credential, session);
    const attacker = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"])) as CryptoKeyPair;
    context = {
      valid: answer.presentation,
      binding: answer.binding,
      attackerKey: attacker.privateKey,
      donors: [
        { label: "another session (same credential)", presentation: (await presentSdJwt(credential, await newSession())).presentation },
        {
          label: "another credential (another holder key)",
          presentation: (await presentSdJwt(await issueSdJwt(), session)).presentation,
          sameSession: true,
        },
      ],
    };
  });

  it("the valid presentation approves, through the inner check and the sealed path", async () => {
    expect(await judgeSdJwt(answer.presentation, answer, new Date())).toStrictEqual({ outcome: "APPROVED" });
    expect(await judgeSealed(session, await sealOpenId4Vp(session, { sd_jwt_vc: [answer.presentation] }), new Date())).toStrictEqual({
      outcome: "APPROVED",
    });
  });

  it(`${MUTATION_RUNS} mutations of every signed or bound part are each refused (inner check)`, {
    timeout: Math.max(600_000, MUTATION_RUNS * 30),
  }, async () => {
    const tally = new Tally();
    const now = new Date();
    await forEachDraw(sdJwtMutant(context), MUTATION_RUNS, async (drawn) => {
      const mutant = await makeSdJwtMutant(context, drawn);
      if (!mutant) return;
      expectRefused(mutant, await judge(judgeSdJwt(mutant.presentation, answer, now, trust)), tally);
    });
    await tally.write("sd-jwt-openid4vp");
    expect(Object.keys(tally.counts).sort()).toStrictEqual([...SD_JWT_OPERATORS].sort());
  });

  it(`${SEALED_RUNS} mutations encrypted to the session's key are each refused through the full check`, { timeout: 300_000 }, async () => {
    const tally = new Tally();
    const now = new Date();
    await forEachDraw(sdJwtMutant(context), SEALED_RUNS, async (drawn) => {
      const mutant = await makeSdJwtMutant(context, drawn);
      if (!mutant) return;
      expectRefused(
        mutant,
        await judge(judgeSealed(session, await sealOpenId4Vp(session, { sd_jwt_vc: [mutant.presentation] }), now, trust)),
        tally,
      );
    });
  });
});
