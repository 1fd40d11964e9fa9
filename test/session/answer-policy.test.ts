// The session policy as one pure rule (src/session/answer-policy.ts), over every combination of its inputs.
// The routes refuse some of these cases earlier (a double-blind session's routes refuse any Authorization
// header before the session is read: src/routes/verification/no-account-on-double-blind.ts), so only here
// does the rule the Durable Object applies meet them all: it must hold on its own.
import { describe, expect, it } from "vitest";
import type { Assurance } from "../../src/session/assurance";
import { policyRefusal, type AnswerWay } from "../../src/session/answer-policy";

const WAYS: AnswerWay[] = ["account", "digital_id", "age_token"];
const ACCEPTED: (Assurance[] | undefined)[] = [
  undefined,
  ["KYC_VERIFIED"],
  ["DIGITAL_ID_VERIFIED"],
  ["KYC_VERIFIED", "DIGITAL_ID_VERIFIED"],
];

/** docs/api-contract.md §Session policy, written out as a table's rule. */
function expected(accepted: Assurance[] | undefined, doubleBlind: boolean, requirePasskey: boolean, way: AnswerWay) {
  const assurance = way === "digital_id" ? "DIGITAL_ID_VERIFIED" : "KYC_VERIFIED";
  if (!(accepted ?? ["KYC_VERIFIED"]).includes(assurance)) return "ASSURANCE_NOT_ACCEPTED";
  if (doubleBlind && way === "account") return "DOUBLE_BLIND_REQUIRED";
  if (requirePasskey && way === "age_token") return "PASSKEY_REQUIRED";
  return null;
}

describe("policyRefusal", () => {
  it("answers every combination of accepted assurance, double_blind, require_passkey and way as the contract says", () => {
    let cases = 0;
    for (const acceptedAssurance of ACCEPTED)
      for (const doubleBlind of [false, true])
        for (const requirePasskey of [false, true])
          for (const way of WAYS) {
            const state = { acceptedAssurance, doubleBlind, requirePasskey };
            expect(policyRefusal(state, way), JSON.stringify({ ...state, way })).toBe(
              expected(acceptedAssurance, doubleBlind, requirePasskey, way),
            );
            cases++;
          }
    expect(cases).toBe(48);
  });

  it("a signed-in account never approves a double-blind session, whatever else the policy allows", () => {
    expect(policyRefusal({ acceptedAssurance: ["KYC_VERIFIED"], doubleBlind: true }, "account")).toBe("DOUBLE_BLIND_REQUIRED");
    expect(policyRefusal({ doubleBlind: true, requirePasskey: true }, "account")).toBe("DOUBLE_BLIND_REQUIRED");
  });

  it("a session stored before 1.2.0 (no policy fields) accepts an account and an age token, not a digital ID", () => {
    expect(policyRefusal({}, "account")).toBeNull();
    expect(policyRefusal({}, "age_token")).toBeNull();
    expect(policyRefusal({}, "digital_id")).toBe("ASSURANCE_NOT_ACCEPTED");
  });
});
