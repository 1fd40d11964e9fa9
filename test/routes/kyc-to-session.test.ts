// Which date of birth answers a merchant session, tested through the completion route (and so through
// the product's own query, loadAnswerer in src/domain/verification/answerer.ts): the provider report's date of a VERIFIED record,
// never the date typed at applicant creation, and nothing while the record is PENDING or REJECTED.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { call, expectError } from "../helpers/http";
import { callWith, checkCompletedEvent, onfidoEnv, signedHeaders, storedKyc, stubOnfido, verifyKycViaSandbox } from "../helpers/kyc";
import { seedAccount, seedMerchant } from "../helpers/seed";
import { birthdayToday, complete, openSession, poll } from "../helpers/sessions";

afterEach(() => vi.restoreAllMocks());

async function verifiedThroughOnfido(typedDob: string, reportDob: string) {
  const onfido = stubOnfido();
  const account = await seedAccount({ userType: "PERSONAL" });
  const created = await callWith(onfidoEnv(), "POST", "/api/kyc/create-applicant", {
    token: account.token,
    body: { firstName: "Ada", lastName: "Lovelace", dob: typedDob },
  });
  expect(created.status).toBe(201);
  const checkId = onfido.completeCheck(created.body.data.applicantId, { result: "clear", dob: reportDob });
  const rawBody = JSON.stringify(checkCompletedEvent(checkId));
  const delivered = await callWith(onfidoEnv(), "POST", "/api/webhooks/provider", { rawBody, headers: await signedHeaders(rawBody) });
  expect(delivered.status).toBe(200);
  vi.restoreAllMocks();
  return account;
}

/** Completes a fresh 18+ session as `token`; the merchant's view of it afterwards. */
async function answer(token: string) {
  const merchant = await seedMerchant();
  const opened = await openSession(merchant.apiKey, 18);
  const completed = await complete(token, opened.session_id, opened.nonce);
  const polled = await poll(merchant.apiKey, opened.session_id);
  return { completed, status: polled.body.data.status as string };
}

describe("Onfido-verified identity answers sessions from the report's date of birth", () => {
  // The two dates always disagree about the answer, so using the typed one fails either case.
  it("APPROVED when the report makes the person 18 today, though the typed date is a day short", async () => {
    const user = await verifiedThroughOnfido(birthdayToday(18, 1), birthdayToday(18));
    const { completed } = await answer(user.token);
    expect(completed.body.data).toMatchObject({ status: "APPROVED", above_age_required: true });
  });

  it("DENIED when the report says a day short, though the typed date is decades over", async () => {
    const user = await verifiedThroughOnfido("1980-01-01", birthdayToday(18, 1));
    const { completed } = await answer(user.token);
    expect(completed.body.data).toMatchObject({ status: "DENIED", above_age_required: false });
  });
});

describe("only a VERIFIED record answers a session", () => {
  it("refuses while the KYC record is PENDING (an applicant, no decided check): 403, the session stays PENDING", async () => {
    const account = await seedAccount({ userType: "PERSONAL" });
    await call("POST", "/api/kyc/create-applicant", {
      token: account.token,
      body: { firstName: "Ada", lastName: "Lovelace", dob: "1990-01-01" },
    });
    expect(await storedKyc(account.id)).toEqual({ status: "PENDING", verifiedDob: null });
    const { completed, status } = await answer(account.token);
    expectError(completed, 403, "KYC_REQUIRED");
    expect(status).toBe("PENDING");
  });

  it("refuses after a rejected check: 403, the session stays PENDING", async () => {
    const account = await seedAccount({ userType: "PERSONAL" });
    await verifyKycViaSandbox(account.token, "1990-01-01", "consider");
    expect(await storedKyc(account.id)).toEqual({ status: "REJECTED", verifiedDob: null });
    const { completed, status } = await answer(account.token);
    expectError(completed, 403, "KYC_REQUIRED");
    expect(status).toBe("PENDING");
  });

  // The status decides, whatever else the row holds: a date left in a PENDING or REJECTED row (a bug
  // elsewhere, a hand edit) must not answer. Losing the status filter of the query fails these.
  for (const status of ["PENDING", "REJECTED"] as const) {
    it(`refuses a ${status} record even when it holds a date of birth`, async () => {
      const account = await seedAccount({ userType: "PERSONAL" });
      await verifyKycViaSandbox(account.token, "1990-01-01", status === "REJECTED" ? "consider" : "clear");
      await env.DB.prepare("UPDATE kyc_records SET status = ?, verified_dob = ? WHERE user_id = ?")
        .bind(status, "1990-01-01", account.id)
        .run();
      const { completed, status: sessionStatus } = await answer(account.token);
      expectError(completed, 403, "KYC_REQUIRED");
      expect(sessionStatus).toBe("PENDING");
    });
  }

  it("answers with a VERIFIED record's date, and refuses an account without any", async () => {
    const verified = await seedAccount({ userType: "PERSONAL" });
    await verifyKycViaSandbox(verified.token, "2004-03-01");
    expect((await answer(verified.token)).completed.body.data).toMatchObject({ status: "APPROVED" });
    const none = await seedAccount({ userType: "PERSONAL" });
    expectError((await answer(none.token)).completed, 403, "KYC_REQUIRED");
  });
});
