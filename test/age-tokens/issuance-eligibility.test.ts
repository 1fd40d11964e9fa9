// Who may be issued tokens: verified, old enough today, passkey when there is one, within the day's count.
import { describe, expect, it } from "vitest";
import { issuanceRefusal, type IssuanceAsk } from "../../src/domain/age-tokens";

const NOW = new Date("2026-11-24T18:00:00.000Z");
const ask = (over: Partial<IssuanceAsk> = {}): IssuanceAsk => ({
  verifiedDateOfBirth: "1990-05-01",
  hasPasskey: false,
  passkeyAsserted: false,
  issuedToday: 0,
  ageOver: 18,
  count: 10,
  dailyLimit: 30,
  now: NOW,
  ...over,
});

describe("happy path", () => {
  it("a verified adult without a passkey, under the day's count, is issued", () => {
    expect(issuanceRefusal(ask())).toBeNull();
  });

  it("an account with a passkey is issued with a fresh assertion", () => {
    expect(issuanceRefusal(ask({ hasPasskey: true, passkeyAsserted: true }))).toBeNull();
  });

  it("on the 18th birthday, tokens for 18 are issued (UTC calendar day)", () => {
    expect(issuanceRefusal(ask({ verifiedDateOfBirth: "2008-11-24" }))).toBeNull();
  });

  it("up to the limit exactly", () => {
    expect(issuanceRefusal(ask({ issuedToday: 20, count: 10 }))).toBeNull();
  });
});

describe("refusals", () => {
  it("an account without a verified identity is 403 KYC_REQUIRED, told to verify before asking for tokens", () => {
    expect(issuanceRefusal(ask({ verifiedDateOfBirth: null }))).toMatchObject({
      code: "KYC_REQUIRED",
      status: 403,
      message: "Verify your identity before asking for age tokens.",
    });
  });

  it("the day before the 18th birthday, tokens for 18 are 403 AGE_TOKEN_NOT_ALLOWED", () => {
    expect(issuanceRefusal(ask({ verifiedDateOfBirth: "2008-11-25" }))).toMatchObject({ code: "AGE_TOKEN_NOT_ALLOWED", status: 403 });
  });

  it("a 20-year-old asking for tokens for 21 is 403 AGE_TOKEN_NOT_ALLOWED", () => {
    expect(issuanceRefusal(ask({ verifiedDateOfBirth: "2006-01-01", ageOver: 21 }))).toMatchObject({ code: "AGE_TOKEN_NOT_ALLOWED" });
  });

  it("an account with a passkey and no fresh assertion is 403 PASSKEY_REQUIRED, told that asking for tokens needs it", () => {
    expect(issuanceRefusal(ask({ hasPasskey: true, passkeyAsserted: false }))).toMatchObject({
      code: "PASSKEY_REQUIRED",
      status: 403,
      message: "Asking for age tokens needs your passkey.",
    });
  });

  it("past the day's count is 429 RATE_LIMITED, retrying at the next UTC midnight", () => {
    const refusal = issuanceRefusal(ask({ issuedToday: 25, count: 10 }));
    expect(refusal).toMatchObject({ code: "RATE_LIMITED", status: 429, headers: { "Retry-After": String(6 * 3600) } });
    expect(refusal!.message).toContain("5 more");
  });

  it("an unverified account is told so first, whatever else is wrong", () => {
    expect(issuanceRefusal(ask({ verifiedDateOfBirth: null, hasPasskey: true, issuedToday: 99 }))).toMatchObject({ code: "KYC_REQUIRED" });
  });
});
