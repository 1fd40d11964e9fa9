// PUT /api/kyc/applicant (docs/end-user-apps.md): after a refused check the person corrects their name and date of
// birth; the provider gets the corrected applicant and the record goes back to "documents to upload".
// Only a plainly REJECTED record of the caller's own account may change.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { kycRecords } from "../../src/db/schema";
import { call, expectError } from "../helpers/http";
import { callWith, checkCompletedEvent, onfidoEnv, signedHeaders, stubOnfido, storedKyc, verifyKycViaSandbox } from "../helpers/kyc";
import { seedAccount, seedMerchant } from "../helpers/seed";
import { d1OfAccount, dbOfAccount } from "../helpers/shards";
import { birthdayToday, complete, openSession } from "../helpers/sessions";
import { rowWhere } from "../helpers/rows";

const recordOf = async (userId: string) => rowWhere(await dbOfAccount(userId), kycRecords, eq(kycRecords.userId, userId));
const correct = (token: string | undefined, body: unknown, appEnv: Env = env) =>
  callWith(appEnv, "PUT", "/api/kyc/applicant", { token, body });
const corrected = (dob: string) => ({ firstName: "Ada", lastName: "Lovelace", dob });
const sandboxComplete = (token: string, result: "clear" | "consider" = "clear") =>
  call("POST", "/api/kyc/sandbox/complete", { token, body: { result } });

/** An account whose sandbox check was refused ("consider") after it typed `typed` as its date of birth. */
async function refusedAccount(typed = "2015-03-04") {
  const account = await seedAccount({ userType: "PERSONAL" });
  const { applicantId } = await verifyKycViaSandbox(account.token, typed, "consider");
  return { ...account, applicantId };
}

afterEach(() => vi.restoreAllMocks());

describe("correcting the applicant (sandbox): happy paths", () => {
  it("a REJECTED record with a mistyped date: corrected, PENDING with no check, then the sandbox verifies the corrected date", async () => {
    const account = await refusedAccount("2015-03-04");
    const before = await recordOf(account.id);
    expect(before).toMatchObject({ status: "REJECTED", checkId: expect.any(String) });

    const res = await correct(account.token, corrected("1985-03-04"));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ success: true, data: { status: "PENDING", verifiedAt: null } });
    // The same applicant (its id never changes), no check running: the page shows "choose an outcome".
    expect(await recordOf(account.id)).toMatchObject({
      applicantId: account.applicantId,
      status: "PENDING",
      checkId: null,
      verifiedDob: null,
      rejectionReason: null,
    });

    const done = await sandboxComplete(account.token);
    expect(done.body.data.status).toBe("VERIFIED");
    expect(await storedKyc(account.id)).toEqual({ status: "VERIFIED", verifiedDob: "1985-03-04" });
  });

  it("the corrected date answers a session: a typed child's date that was refused, corrected to an adult's, is APPROVED", async () => {
    const merchant = await seedMerchant();
    const account = await refusedAccount(birthdayToday(10));
    expect((await correct(account.token, corrected(birthdayToday(30)))).status).toBe(200);
    expect((await sandboxComplete(account.token)).body.data.status).toBe("VERIFIED");
    const opened = await openSession(merchant.apiKey, 18);
    expect((await complete(account.token, opened.session_id, opened.nonce)).body.data.status).toBe("APPROVED");
  });

  it("corrected twice after two refusals: the latest date is the one verified", async () => {
    const account = await refusedAccount("2001-01-01");
    expect((await correct(account.token, corrected("1991-01-01"))).status).toBe(200);
    expect((await sandboxComplete(account.token, "consider")).body.data.status).toBe("REJECTED");
    expect((await correct(account.token, corrected("1981-01-01"))).status).toBe(200);
    expect((await sandboxComplete(account.token)).body.data.status).toBe("VERIFIED");
    expect((await storedKyc(account.id))!.verifiedDob).toBe("1981-01-01");
  });

  it("stores nothing typed: neither the name nor the address, and no date of birth in the KYC record", async () => {
    const account = await refusedAccount("2015-03-04");
    const body = {
      firstName: "Augusta",
      lastName: "Byron",
      dob: "1984-11-12",
      address: { country: "GBR", postcode: "NW1 5LR", street: "Marylebone Road" },
    };
    expect((await correct(account.token, body)).status).toBe(200);
    const row = JSON.stringify(
      await (await d1OfAccount(account.id)).prepare("SELECT * FROM kyc_records WHERE user_id = ?").bind(account.id).first(),
    );
    for (const typed of ["Augusta", "Byron", "Marylebone", "NW1 5LR", "1984-11-12", "19841112"]) expect(row).not.toContain(typed);
  });

  it("deleting the applicant (as a deleted account does) forgets the sandbox's corrected date", async () => {
    const account = await refusedAccount("2015-03-04");
    expect((await correct(account.token, corrected("1984-11-12"))).status).toBe(200);
    const stored = () =>
      env.DB.prepare("SELECT dob FROM sandbox_applicant_updates WHERE applicant_id = ?").bind(account.applicantId).first();
    expect(await stored()).toEqual({ dob: "1984-11-12" });
    const { SandboxProvider } = await import("../../src/providers/sandbox");
    await new SandboxProvider(env.DB).deleteApplicant(account.applicantId);
    expect(await stored()).toBeNull();
  });
});

describe("correcting the applicant: refusals", () => {
  it("a VERIFIED record is 409 KYC_ALREADY_VERIFIED and its verified date stays", async () => {
    const account = await seedAccount({ userType: "PERSONAL" });
    await verifyKycViaSandbox(account.token, "1990-01-01");
    expectError(await correct(account.token, corrected("1970-01-01")), 409, "KYC_ALREADY_VERIFIED");
    expect(await storedKyc(account.id)).toEqual({ status: "VERIFIED", verifiedDob: "1990-01-01" });
  });

  it("no record is 409 APPLICANT_REQUIRED and creates none", async () => {
    const account = await seedAccount({ userType: "PERSONAL" });
    expectError(await correct(account.token, corrected("1990-01-01")), 409, "APPLICANT_REQUIRED");
    expect(await recordOf(account.id)).toBeUndefined();
  });

  it("a PENDING record (documents to upload, or a check running) is 409 KYC_CHECK_PENDING", async () => {
    const account = await seedAccount({ userType: "PERSONAL" });
    expect((await call("POST", "/api/kyc/create-applicant", { token: account.token, body: corrected("2015-03-04") })).status).toBe(201);
    expectError(await correct(account.token, corrected("1990-01-01")), 409, "KYC_CHECK_PENDING");
    expect((await sandboxComplete(account.token)).body.data.status).toBe("VERIFIED");
    expect((await storedKyc(account.id))!.verifiedDob).toBe("2015-03-04");
  });

  it("a record refused because its document verifies another account stays refused: 409 IDENTITY_ALREADY_VERIFIED", async () => {
    const number = `DUP${Date.now().toString(36).toUpperCase()}`.slice(0, 20);
    const first = await seedAccount({ userType: "PERSONAL" });
    const second = await seedAccount({ userType: "PERSONAL" });
    for (const account of [first, second]) {
      expect((await call("POST", "/api/kyc/create-applicant", { token: account.token, body: corrected("1990-01-01") })).status).toBe(201);
      await call("POST", "/api/kyc/sandbox/complete", { token: account.token, body: { result: "clear", document_number: number } });
    }
    expect(await recordOf(second.id)).toMatchObject({ status: "REJECTED", rejectionReason: "IDENTITY_ALREADY_VERIFIED" });
    expectError(await correct(second.token, corrected("1991-01-01")), 409, "IDENTITY_ALREADY_VERIFIED");
    expect(await recordOf(second.id)).toMatchObject({ status: "REJECTED", rejectionReason: "IDENTITY_ALREADY_VERIFIED" });
  });

  it("an invalid body is 422 with one problem per field, and the record stays REJECTED", async () => {
    const account = await refusedAccount();
    const res = await correct(account.token, { firstName: "", lastName: "Lovelace", dob: "2001-02-31" });
    expectError(res, 422, "VALIDATION_FAILED");
    expect(res.body.errors!.map((e: { path: string }) => e.path).sort()).toEqual(["dob", "firstName"]);
    expectError(await correct(account.token, { ...corrected("2999-01-01") }), 422, "VALIDATION_FAILED");
    expect(await recordOf(account.id)).toMatchObject({ status: "REJECTED" });
  });

  it("without a valid Bearer token it is 401 and nothing changes", async () => {
    const account = await refusedAccount();
    expectError(await correct(undefined, corrected("1990-01-01")), 401, "UNAUTHORIZED");
    expectError(await correct("not-a-token", corrected("1990-01-01")), 401, "UNAUTHORIZED");
    expect(await recordOf(account.id)).toMatchObject({ status: "REJECTED" });
  });

  it("acts only on the caller's own record: another account's correction leaves this refused record as it was", async () => {
    const victim = await refusedAccount("2015-03-04");
    const stranger = await refusedAccount("2014-01-01");
    expect((await correct(stranger.token, corrected("1980-01-01"))).status).toBe(200);
    expect(await recordOf(victim.id)).toMatchObject({ status: "REJECTED", applicantId: victim.applicantId });
    const rows = await env.DB.prepare("SELECT applicant_id FROM sandbox_applicant_updates WHERE applicant_id IN (?, ?)")
      .bind(victim.applicantId, stranger.applicantId)
      .all();
    expect(rows.results).toEqual([{ applicant_id: stranger.applicantId }]);
  });
});

describe("correcting the applicant: the account limit", () => {
  // The production limit (5 a day); the frozen clock keeps the run inside one UTC day.
  const productionLimit = { ...env, KYC_APPLICANT_UPDATES_PER_DAY: undefined } as unknown as Env;
  beforeEach(() => {
    const now = Date.now();
    const left = 86_400 - (Math.floor(now / 1000) % 86_400);
    vi.useFakeTimers({ toFake: ["Date"], now: left > 15 * 60 ? now : now + (left + 60) * 1000 });
  });
  afterEach(() => vi.useRealTimers());

  it("5 corrections a day; the 6th is 429 RATE_LIMITED with Retry-After and does not reach the provider", async () => {
    const account = await refusedAccount();
    for (let i = 0; i < 5; i++) {
      expect((await correct(account.token, corrected("1990-01-01"), productionLimit)).status).toBe(200);
      expect((await sandboxComplete(account.token, "consider")).body.data.status).toBe("REJECTED");
    }
    const refused = await correct(account.token, corrected("1970-01-01"), productionLimit);
    expectError(refused, 429, "RATE_LIMITED");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await recordOf(account.id)).toMatchObject({ status: "REJECTED" });
    const stored = await env.DB.prepare("SELECT dob FROM sandbox_applicant_updates WHERE applicant_id = ?")
      .bind(account.applicantId)
      .first();
    expect(stored).toEqual({ dob: "1990-01-01" });
    // Another account is not affected.
    const other = await refusedAccount();
    expect((await correct(other.token, corrected("1990-01-01"), productionLimit)).status).toBe(200);
  });
});

describe("correcting the applicant (Onfido)", () => {
  it("sends PUT /applicants/{id} with the create body; the next submission checks the same applicant", async () => {
    const onfido = stubOnfido();
    const account = await seedAccount({ userType: "PERSONAL" });
    const created = await callWith(onfidoEnv(), "POST", "/api/kyc/create-applicant", {
      token: account.token,
      body: corrected("2015-03-04"),
    });
    const applicantId = created.body.data.applicantId as string;
    expect((await callWith(onfidoEnv(), "POST", "/api/kyc/submit", { token: account.token })).status).toBe(202);
    const firstCheck = onfido.created[0]!;
    onfido.finishCheck(firstCheck, { result: "consider" });
    const rawBody = JSON.stringify(checkCompletedEvent(firstCheck));
    expect((await callWith(onfidoEnv(), "POST", "/api/webhooks/provider", { rawBody, headers: await signedHeaders(rawBody) })).status).toBe(
      200,
    );
    expect(await recordOf(account.id)).toMatchObject({ status: "REJECTED" });

    onfido.requests.length = 0;
    const res = await correct(
      account.token,
      { ...corrected("1985-03-04"), address: { country: "gbr", postcode: "SW1Y 4JH" } },
      onfidoEnv(),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(onfido.requests).toEqual([
      {
        method: "PUT",
        path: `/applicants/${applicantId}`,
        authorization: "Token token=dev-onfido-token",
        body: { first_name: "Ada", last_name: "Lovelace", dob: "1985-03-04", address: { country: "GBR", postcode: "SW1Y 4JH" } },
      },
    ]);
    expect(await recordOf(account.id)).toMatchObject({ applicantId, status: "PENDING", checkId: null });
    expect((await callWith(onfidoEnv(), "POST", "/api/kyc/submit", { token: account.token })).status).toBe(202);
    expect(onfido.requests.at(-1)).toMatchObject({ method: "POST", path: "/checks", body: { applicant_id: applicantId } });
  });

  it("a provider failure is 502 PROVIDER_ERROR and the record stays REJECTED", async () => {
    const account = await refusedAccount();
    const onfido = stubOnfido();
    onfido.fail = 500;
    // The sandbox's applicant is unknown to Onfido as well; what matters is that the failure changes nothing.
    expectError(await correct(account.token, corrected("1990-01-01"), onfidoEnv()), 502, "PROVIDER_ERROR");
    expect(await recordOf(account.id)).toMatchObject({ status: "REJECTED" });
  });
});
