// Which ways may answer a session (docs/api-contract.md §Session policy): the merchant's accepted_assurance, double_blind and
// require_passkey, as one pure rule the session's Durable Object applies before any answer changes anything.
import type { Assurance } from "./assurance";

/** The policy fields of a session's state (src/session/state-machine.ts): absent in states stored before 1.2.0. */
type Policy = { acceptedAssurance?: Assurance[]; doubleBlind?: boolean; requirePasskey?: boolean };

/** account: a signed-in approval (password or passkey); digital_id: a wallet credential; age_token: an anonymous age token. */
export type AnswerWay = "account" | "digital_id" | "age_token";
export type PolicyRefusal = "ASSURANCE_NOT_ACCEPTED" | "DOUBLE_BLIND_REQUIRED" | "PASSKEY_REQUIRED";

const ASSURANCE_OF: Record<AnswerWay, Assurance> = {
  account: "KYC_VERIFIED",
  digital_id: "DIGITAL_ID_VERIFIED",
  age_token: "KYC_VERIFIED",
};

/** A session stored before 1.2.0 accepted the one way there was. */
export const acceptedAssuranceOf = (state: Policy): Assurance[] => state.acceptedAssurance ?? ["KYC_VERIFIED"];

export function policyRefusal(state: Policy, way: AnswerWay): PolicyRefusal | null {
  if (!acceptedAssuranceOf(state).includes(ASSURANCE_OF[way])) return "ASSURANCE_NOT_ACCEPTED";
  // Double-blind: the service must not hold an account and this session together at the answer.
  if (way === "account" && state.doubleBlind) return "DOUBLE_BLIND_REQUIRED";
  // require_passkey: only a key on the person's device, used at the approval, approves (docs/passkeys.md).
  // An age token is a bearer token, bound to no key: whoever holds it could present it. (An account's
  // approval is judged by its holder binding, in the object; a wallet's answer always carries one.)
  if (way === "age_token" && state.requirePasskey) return "PASSKEY_REQUIRED";
  return null;
}
