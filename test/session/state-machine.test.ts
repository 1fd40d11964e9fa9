import { describe, expect, it } from "vitest";
import { fullYearsOn } from "../../src/session/age";
import { transition, type SessionState } from "../../src/session/state-machine";

const pending: SessionState = {
  id: "ses_x",
  accountId: "usr_m",
  keyId: "key_k",
  merchantName: "Acme",
  ageRequired: 18,
  callbackUrl: "https://m.example/cb",
  nonceHash: "h",
  status: "PENDING",
  createdAt: "2026-11-22T10:00:00.000Z",
  expiresAt: "2026-11-22T10:30:00.000Z",
  resolvedAt: null,
  aboveAgeRequired: false,
  receiptId: null,
};
const complete = (at: string, dateOfBirth: string, consent = true) =>
  ({ type: "complete", at, consent, dateOfBirth, receiptId: "rcpt_1" }) as const;

describe("calendar age", () => {
  it("counts a birthday on the day itself", () => {
    expect(fullYearsOn("2008-11-22", "2026-11-22T00:00:00.000Z")).toBe(18);
    expect(fullYearsOn("2008-11-23", "2026-11-22T23:59:59.999Z")).toBe(17);
  });

  it("makes someone born on 29 February a year older on 1 March in non-leap years", () => {
    expect(fullYearsOn("2008-02-29", "2026-02-28T12:00:00.000Z")).toBe(17);
    expect(fullYearsOn("2008-02-29", "2026-03-01T00:00:00.000Z")).toBe(18);
    expect(fullYearsOn("2008-02-29", "2028-02-29T00:00:00.000Z")).toBe(20);
  });
});

describe("session transitions", () => {
  it("approves consent from someone old enough and denies someone a day short", () => {
    const approved = transition(pending, complete("2026-11-22T10:05:00.000Z", "2008-11-22"));
    expect(approved).toMatchObject({
      outcome: "changed",
      state: { status: "APPROVED", aboveAgeRequired: true, receiptId: "rcpt_1", resolvedAt: "2026-11-22T10:05:00.000Z" },
    });
    const denied = transition(pending, complete("2026-11-22T10:05:00.000Z", "2008-11-23"));
    expect(denied).toMatchObject({ outcome: "changed", state: { status: "DENIED", aboveAgeRequired: false, receiptId: "rcpt_1" } });
  });

  it("denies a refusal whatever the age", () => {
    expect(transition(pending, complete("2026-11-22T10:05:00.000Z", "1950-01-01", false)).state.status).toBe("DENIED");
  });

  it("refuses a completion after expiry and expires the session at its expiry time", () => {
    const result = transition(pending, complete("2026-11-22T10:30:00.000Z", "1950-01-01"));
    expect(result).toMatchObject({
      outcome: "not_pending",
      changed: true,
      state: { status: "EXPIRED", resolvedAt: pending.expiresAt, receiptId: null },
    });
  });

  it("expires only when due, unless forced", () => {
    expect(transition(pending, { type: "expire", at: "2026-11-22T10:29:59.999Z" }).outcome).toBe("unchanged");
    expect(transition(pending, { type: "expire", at: "2026-11-22T11:00:00.000Z" }).state).toMatchObject({
      status: "EXPIRED",
      resolvedAt: pending.expiresAt,
    });
    expect(transition(pending, { type: "expire", at: "2026-11-22T10:10:00.000Z", force: true }).state).toMatchObject({
      status: "EXPIRED",
      resolvedAt: "2026-11-22T10:10:00.000Z",
    });
  });

  it("leaves PENDING once only: later events change nothing", () => {
    const approved = transition(pending, complete("2026-11-22T10:05:00.000Z", "1990-01-01")).state;
    expect(transition(approved, complete("2026-11-22T10:06:00.000Z", "1990-01-01"))).toEqual({
      outcome: "not_pending",
      state: approved,
      changed: false,
    });
    expect(transition(approved, { type: "expire", at: "2026-11-22T11:00:00.000Z", force: true })).toEqual({
      outcome: "unchanged",
      state: approved,
    });
  });
});

describe("test mode and holder binding", () => {
  const testAnswer = (outcome: "APPROVED" | "DENIED_UNDER_AGE" | "DENIED_REFUSED" | "EXPIRED", at = "2026-11-22T10:05:00.000Z") =>
    ({ type: "test_answer", at, outcome, receiptId: "rcpt_t" }) as const;

  it("never answers a live session (or one stored before 1.1.0, without livemode) through the test path", () => {
    for (const state of [pending, { ...pending, livemode: true }]) {
      const result = transition(state, testAnswer("APPROVED"));
      expect(result).toMatchObject({ outcome: "not_pending", changed: false, state: { status: "PENDING" } });
    }
  });

  it("answers a test session with the chosen outcome, holder_binding null, and only once", () => {
    const test = { ...pending, livemode: false };
    expect(transition(test, testAnswer("APPROVED")).state).toMatchObject({
      status: "APPROVED",
      aboveAgeRequired: true,
      receiptId: "rcpt_t",
      holderBinding: null,
    });
    expect(transition(test, testAnswer("DENIED_UNDER_AGE")).state).toMatchObject({ status: "DENIED", aboveAgeRequired: false });
    expect(transition(test, testAnswer("DENIED_REFUSED")).state).toMatchObject({ status: "DENIED", aboveAgeRequired: false });
    expect(transition(test, testAnswer("EXPIRED")).state).toMatchObject({
      status: "EXPIRED",
      resolvedAt: "2026-11-22T10:05:00.000Z",
      receiptId: null,
    });
    const answered = transition(test, testAnswer("APPROVED")).state;
    expect(transition(answered, testAnswer("DENIED_REFUSED"))).toMatchObject({ outcome: "not_pending", changed: false, state: answered });
  });

  it("binds PASSWORD to an answer with consent, whatever the age, and nothing to a refusal or an expiry", () => {
    expect(transition(pending, complete("2026-11-22T10:05:00.000Z", "1990-01-01")).state.holderBinding).toBe("PASSWORD");
    expect(transition(pending, complete("2026-11-22T10:05:00.000Z", "2015-01-01")).state.holderBinding).toBe("PASSWORD");
    expect(transition(pending, complete("2026-11-22T10:05:00.000Z", "1990-01-01", false)).state.holderBinding).toBeNull();
    expect(transition(pending, { type: "expire", at: "2026-11-22T11:00:00.000Z" }).state.holderBinding).toBeNull();
  });
});

describe("declining without an account", () => {
  const decline = (at: string) => ({ type: "decline", at, receiptId: "rcpt_d" }) as const;

  it("denies a pending session and marks that no identity took part", () => {
    expect(transition(pending, decline("2026-11-22T10:05:00.000Z"))).toEqual({
      outcome: "changed",
      state: {
        ...pending,
        status: "DENIED",
        aboveAgeRequired: false,
        resolvedAt: "2026-11-22T10:05:00.000Z",
        receiptId: "rcpt_d",
        holderBinding: null,
        declinedWithoutAccount: true,
        assurance: null,
        denialReason: "DECLINED",
      },
    });
  });

  it("is refused once answered, and past expiry expires instead", () => {
    const approved = transition(pending, complete("2026-11-22T10:05:00.000Z", "2000-01-01")).state;
    expect(transition(approved, decline("2026-11-22T10:06:00.000Z"))).toEqual({ outcome: "not_pending", state: approved, changed: false });
    expect(transition(pending, decline("2026-11-22T10:30:00.000Z"))).toMatchObject({
      outcome: "not_pending",
      changed: true,
      state: { status: "EXPIRED", receiptId: null },
    });
  });
});

// docs/api-contract.md §Digital ID, §Age tokens.
describe("answers that carry their own proof", () => {
  const proof = (at: string, above: boolean, way: "wallet" | "token") =>
    ({
      type: "proof",
      at,
      receiptId: "rcpt_p",
      above,
      assurance: way === "wallet" ? "DIGITAL_ID_VERIFIED" : "KYC_VERIFIED",
      holderBinding: way === "wallet" ? "DEVICE_KEY" : "ANONYMOUS_TOKEN",
    }) as const;

  it("approves with the proof's assurance and binding, and denies a credential under the age as UNDER_AGE", () => {
    expect(transition(pending, proof("2026-11-22T10:05:00.000Z", true, "wallet"))).toEqual({
      outcome: "changed",
      state: {
        ...pending,
        status: "APPROVED",
        aboveAgeRequired: true,
        resolvedAt: "2026-11-22T10:05:00.000Z",
        receiptId: "rcpt_p",
        holderBinding: "DEVICE_KEY",
        assurance: "DIGITAL_ID_VERIFIED",
        denialReason: null,
      },
    });
    expect(transition(pending, proof("2026-11-22T10:05:00.000Z", false, "wallet")).state).toMatchObject({
      status: "DENIED",
      aboveAgeRequired: false,
      holderBinding: "DEVICE_KEY",
      assurance: "DIGITAL_ID_VERIFIED",
      denialReason: "UNDER_AGE",
    });
    expect(transition(pending, proof("2026-11-22T10:05:00.000Z", true, "token")).state).toMatchObject({
      status: "APPROVED",
      holderBinding: "ANONYMOUS_TOKEN",
      assurance: "KYC_VERIFIED",
    });
  });

  it("is refused once answered, and past expiry expires instead, with nothing of the proof kept", () => {
    const approved = transition(pending, complete("2026-11-22T10:05:00.000Z", "2000-01-01")).state;
    expect(transition(approved, proof("2026-11-22T10:06:00.000Z", true, "wallet"))).toEqual({
      outcome: "not_pending",
      state: approved,
      changed: false,
    });
    expect(transition(pending, proof("2026-11-22T10:30:00.000Z", true, "wallet"))).toMatchObject({
      outcome: "not_pending",
      changed: true,
      state: { status: "EXPIRED", holderBinding: null, assurance: null, denialReason: null },
    });
  });

  it("tells an account's refusal (DECLINED) from its under-age answer (UNDER_AGE)", () => {
    expect(transition(pending, complete("2026-11-22T10:05:00.000Z", "2015-01-01")).state).toMatchObject({
      denialReason: "UNDER_AGE",
      assurance: "KYC_VERIFIED",
    });
    expect(transition(pending, complete("2026-11-22T10:05:00.000Z", "1990-01-01", false)).state).toMatchObject({
      denialReason: "DECLINED",
      assurance: "KYC_VERIFIED",
    });
    expect(transition(pending, complete("2026-11-22T10:05:00.000Z", "1990-01-01")).state).toMatchObject({ denialReason: null });
  });
});
