// Who may be issued age tokens (docs/api-contract.md §Age tokens), as a pure decision over what the caller read: an account
// with a verified identity, at least the threshold old today, confirming with a fresh passkey assertion
// when it has a passkey, within its daily count of tokens. The route reads the account and counts;
// this says yes, or which refusal, in the contract's order.
import { ApiError } from "../../errors";
import { fullYearsOn } from "../../session/age";

/** docs/api-contract.md §Age tokens: the issuance limit counts tokens, 30 a day per account unless configured. */
export const AGE_TOKENS_PER_DAY_DEFAULT = 30;

export type IssuanceAsk = {
  /** The verified date of birth (YYYY-MM-DD), null unless the identity check is VERIFIED. */
  verifiedDateOfBirth: string | null;
  hasPasskey: boolean;
  /** A fresh passkey assertion for this request verified. */
  passkeyAsserted: boolean;
  /** Tokens already issued to the account in the current UTC day. */
  issuedToday: number;
  ageOver: number;
  count: number;
  dailyLimit: number;
  now: Date;
};

const secondsToNextUtcDay = (now: Date) =>
  Math.max(1, Math.ceil((Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000));

/** null when the account may be issued `count` tokens for `ageOver` now, else the error to answer. */
export function issuanceRefusal(ask: IssuanceAsk): ApiError | null {
  if (ask.verifiedDateOfBirth === null)
    return new ApiError("KYC_REQUIRED", { message: "Verify your identity before asking for age tokens." });
  if (fullYearsOn(ask.verifiedDateOfBirth, ask.now.toISOString()) < ask.ageOver) return new ApiError("AGE_TOKEN_NOT_ALLOWED");
  if (ask.hasPasskey && !ask.passkeyAsserted)
    return new ApiError("PASSKEY_REQUIRED", { message: "Asking for age tokens needs your passkey." });
  const left = Math.max(0, ask.dailyLimit - ask.issuedToday);
  if (ask.count > left) {
    return new ApiError("RATE_LIMITED", {
      message: `Too many age tokens today: ${left} more can be issued before midnight UTC.`,
      headers: { "Retry-After": String(secondsToNextUtcDay(ask.now)) },
    });
  }
  return null;
}
