// The outcome rule of docs/api-contract.md §Digital ID, once every check has passed: an `age_over_M` (mdoc) or
// `age_equal_or_over.M` (SD-JWT VC) that is true with M >= age_required approves; one that is false with
// M <= age_required denies (UNDER_AGE); nothing deciding is DIGITAL_ID_INSUFFICIENT. Issuer-signed
// statements that contradict each other are refused rather than read either way.
import { insufficient, invalid } from "./failures";
import type { StatusReference } from "./status-reference";

/**
 * One issuer-signed age statement: "the holder is at least `age` years old" is `over`; `status`, where
 * the credential's issuer publishes whether it still holds (src/digital-id/status-list.ts checks it).
 */
export type AgeClaim = { age: number; over: boolean; status?: StatusReference | null };

export type DigitalIdOutcome = { outcome: "APPROVED" } | { outcome: "DENIED"; denialReason: "UNDER_AGE" };

export function decideAge(claims: AgeClaim[], ageRequired: number): DigitalIdOutcome {
  const approves = claims.some((claim) => claim.over && claim.age >= ageRequired);
  const denies = claims.some((claim) => !claim.over && claim.age <= ageRequired);
  if (approves && denies) throw invalid("the credential's age statements contradict each other.");
  if (approves) return { outcome: "APPROVED" };
  if (denies) return { outcome: "DENIED", denialReason: "UNDER_AGE" };
  throw insufficient(`The digital ID does not say whether the person is at least ${ageRequired}.`);
}
