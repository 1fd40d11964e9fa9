// What this service asks wallets for (docs/api-contract.md §Digital ID): only the age statement at the session's age, in
// the two mdoc doctypes and in an SD-JWT VC, and nothing else (no name, birth date or portrait).
export const MDL_DOCTYPE = "org.iso.18013.5.1.mDL";
export const EU_AGE_DOCTYPE = "eu.europa.ec.av.1";

/** Each accepted doctype and the namespace whose age elements count (self-asserted device elements never do). */
export const AGE_NAMESPACES: Record<string, string> = {
  [MDL_DOCTYPE]: "org.iso.18013.5.1",
  [EU_AGE_DOCTYPE]: "eu.europa.ec.av.1",
};

/** SD-JWT VC types asked for: the EU PID, under its current and its earlier name (both carry `age_equal_or_over`). */
export const SD_JWT_VC_TYPES = ["urn:eudi:pid:1", "urn:eu.europa.ec.eudi:pid:1"];

/** `age_over_NN` takes two digits, so the mdoc way ends at 99 (docs/api-contract.md §Digital ID). */
export const MDOC_MAX_AGE = 99;

export const twoDigits = (age: number): string => String(age).padStart(2, "0");

export const mdocAgeElement = (age: number): string => `age_over_${twoDigits(age)}`;

/** The age an mdoc element states, or null for any other element. */
export function mdocElementAge(identifier: string): number | null {
  const match = /^age_over_(\d\d)$/.exec(identifier);
  return match ? Number(match[1]) : null;
}
