// POST /api/kyc/submit: the app's call after the provider SDK's upload, which starts the check at
// Onfido (classic flow); the check's webhook then decides. Onfido is the in-memory stand-in.
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { kycRecords } from "../../src/db/schema";
import { call, expectError } from "../helpers/http";
import { callWith, checkCompletedEvent, onfidoEnv, signedHeaders, stubOnfido, storedKyc, verifyKycViaSandbox } from "../helpers/kyc";
import { seedAccount, seedMerchant } from "../helpers/seed";
import { birthdayToday, CALLBACK_URL, complete, openSession } from "../helpers/sessions";
import { dbOfAccount } from "../helpers/shards";
import { rowWhere } from "../helpers/rows";

const typed = { firstName: "Ada", lastName: "Lovelace", dob: "1991-01-01" };
const recordOf = async (userId: string) => rowWhere(await dbOfAccount(userId), kycRecords, eq(kycRecords.userId, userId));

afterEach(() => vi.restoreAllMocks());

const submit = (token?: string) => callWith(onfidoEnv(), "POST", "/api/kyc/submit", { token });
const status = async (token: string) => (await callWith(onfidoEnv(), "GET", "/api/kyc/status", { token })).body.data;

async function deliver(checkId: string) {
  const rawBody = JSON.stringify(checkCompletedEvent(checkId));
  return callWith(onfidoEnv(), "POST", "/api/webhooks/provider", { rawBody, headers: await signedHeaders(rawBody) });
}

/** An account with an Onfido applicant, created through the endpoint. */
async function withApplicant(onfido: ReturnType<typeof stubOnfido>) {
  const account = await seedAccount({ userType: "PERSONAL" });
  const created = await callWith(onfidoEnv(), "POST", "/api/kyc/create-applicant", { token: account.token, body: typed });
  expect(created.status).toBe(201);
  onfido.requests.length = 0;
  return { ...account, applicantId: created.body.data.applicantId as string };
}

describe("KYC submit (Onfido): happy paths", () => {
  it("applicant, SDK token, upload, submit, then check.completed: VERIFIED from the report, and a session is APPROVED", async () => {
    const onfido = stubOnfido();
    const merchant = await seedMerchant();
    const account = await withApplicant(onfido);
    expect((await callWith(onfidoEnv(), "GET", "/api/kyc/sdk-token", { token: account.token })).status).toBe(200);

    const res = await submit(account.token);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ success: true, data: { status: "PENDING", verifiedAt: null } });
    expect(onfido.requests.at(-1)).toEqual({
      method: "POST",
      path: "/checks",
      authorization: "Token token=dev-onfido-token",
      body: { applicant_id: account.applicantId, report_names: ["document", "facial_similarity_photo"] },
    });
    const checkId = onfido.created[0]!;
    expect(await recordOf(account.id)).toMatchObject({ status: "PENDING", checkId, verifiedDob: null, verifiedAt: null });

    // Onfido finishes: the document says someone who turns 18 today, whatever was typed.
    onfido.finishCheck(checkId, { result: "clear", dob: birthdayToday(18) });
    expect((await deliver(checkId)).status).toBe(200);
    expect(await status(account.token)).toEqual({ status: "VERIFIED", verifiedAt: expect.any(String) });
    expect(await recordOf(account.id)).toMatchObject({ status: "VERIFIED", verifiedDob: birthdayToday(18), checkId });

    vi.restoreAllMocks();
    const opened = await openSession(merchant.apiKey, 18);
    expect((await complete(account.token, opened.session_id, opened.nonce)).body.data.status).toBe("APPROVED");
  });

  it("submitting again while the check runs starts nothing new and answers PENDING", async () => {
    const onfido = stubOnfido();
    const account = await withApplicant(onfido);
    await submit(account.token);
    const before = await recordOf(account.id);
    const again = await submit(account.token);
    expect(again.status).toBe(202);
    expect(again.body.data).toEqual({ status: "PENDING", verifiedAt: null });
    expect(onfido.created).toHaveLength(1);
    expect(await recordOf(account.id)).toEqual(before);
  });

  it("submitting for a VERIFIED account calls nobody and changes nothing", async () => {
    const onfido = stubOnfido();
    const account = await withApplicant(onfido);
    await submit(account.token);
    onfido.finishCheck(onfido.created[0]!, { result: "clear", dob: "1980-02-02" });
    await deliver(onfido.created[0]!);
    const before = await recordOf(account.id);
    const calls = onfido.requests.length;
    const res = await submit(account.token);
    expect(res.status).toBe(202);
    expect(res.body.data).toEqual({ status: "VERIFIED", verifiedAt: before!.verifiedAt });
    expect(onfido.requests.length).toBe(calls);
    expect(await recordOf(account.id)).toEqual(before);
  });

  it("after a rejection a new submission starts a new check, which alone decides", async () => {
    const onfido = stubOnfido();
    const account = await withApplicant(onfido);
    await submit(account.token);
    const first = onfido.created[0]!;
    onfido.finishCheck(first, { result: "consider" });
    await deliver(first);
    expect((await status(account.token)).status).toBe("REJECTED");

    const retry = await submit(account.token);
    expect(retry.status).toBe(202);
    expect(retry.body.data.status).toBe("PENDING");
    const second = onfido.created[1]!;
    expect(await recordOf(account.id)).toMatchObject({ status: "PENDING", checkId: second, verifiedDob: null });

    // The first check's event delivered again while the second runs is ignored.
    expect((await deliver(first)).status).toBe(200);
    expect(await recordOf(account.id)).toMatchObject({ status: "PENDING", checkId: second });

    onfido.finishCheck(second, { result: "clear", dob: "1984-08-08" });
    await deliver(second);
    expect(await recordOf(account.id)).toMatchObject({ status: "VERIFIED", verifiedDob: "1984-08-08", checkId: second });
  });

  it("with the sandbox, submitting verifies the typed date of birth at once, without any network", async () => {
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const { id, token } = await seedAccount({ userType: "PERSONAL" });
    await call("POST", "/api/kyc/create-applicant", { token, body: { ...typed, dob: "2001-03-03" } });
    const res = await call("POST", "/api/kyc/submit", { token });
    expect(res.status).toBe(202);
    expect(res.body.data).toEqual({ status: "VERIFIED", verifiedAt: expect.any(String) });
    expect(await storedKyc(id)).toEqual({ status: "VERIFIED", verifiedDob: "2001-03-03" });
    // Only a merchant callback queued by an earlier test in this isolate may be on its way out.
    expect(fetchSpy.mock.calls.map(([input]) => String(input)).filter((url) => !url.startsWith(CALLBACK_URL))).toEqual([]);
  });

  it("with the sandbox, a rejected account is verified by submitting again", async () => {
    const { id, token } = await seedAccount({ userType: "PERSONAL" });
    await verifyKycViaSandbox(token, "1970-10-10", "consider");
    expect((await call("POST", "/api/kyc/submit", { token })).body.data.status).toBe("VERIFIED");
    expect(await storedKyc(id)).toEqual({ status: "VERIFIED", verifiedDob: "1970-10-10" });
  });
});

describe("KYC submit: errors", () => {
  it("without an applicant is 409 APPLICANT_REQUIRED, calls nobody and creates nothing", async () => {
    const onfido = stubOnfido();
    const { id, token } = await seedAccount({ userType: "PERSONAL" });
    expectError(await submit(token), 409, "APPLICANT_REQUIRED");
    expect(onfido.requests).toEqual([]);
    expect(await recordOf(id)).toBeUndefined();
  });

  it("an Onfido error is 502 PROVIDER_ERROR, without Onfido's body, and changes nothing", async () => {
    const onfido = stubOnfido();
    const account = await withApplicant(onfido);
    const before = await recordOf(account.id);
    onfido.fail = 422;
    const res = await submit(account.token);
    expectError(res, 502, "PROVIDER_ERROR");
    expect(res.text).not.toMatch(/Lovelace|1815|validation_error/);
    expect(await recordOf(account.id)).toEqual(before);
  });

  it("an unreachable Onfido is 502 PROVIDER_ERROR and a later submission works", async () => {
    const onfido = stubOnfido();
    const account = await withApplicant(onfido);
    onfido.fail = "network";
    expectError(await submit(account.token), 502, "PROVIDER_ERROR");
    expect((await recordOf(account.id))?.checkId).toBeNull();
    onfido.fail = null;
    expect((await submit(account.token)).status).toBe(202);
    expect((await recordOf(account.id))?.checkId).toBe(onfido.created.at(-1));
  });

  it("a check answer for another applicant is 502 and records nothing", async () => {
    const onfido = stubOnfido();
    const account = await withApplicant(onfido);
    const before = await recordOf(account.id);
    vi.restoreAllMocks();
    vi.spyOn(globalThis, "fetch").mockResolvedValue(
      new Response(
        JSON.stringify({ id: crypto.randomUUID(), applicant_id: crypto.randomUUID(), status: "in_progress", result: null, report_ids: [] }),
        {
          status: 201,
          headers: { "content-type": "application/json" },
        },
      ),
    );
    expectError(await submit(account.token), 502, "PROVIDER_ERROR");
    expect(await recordOf(account.id)).toEqual(before);
  });
});

describe("KYC submit: security", () => {
  it("needs a signed-in account", async () => {
    const onfido = stubOnfido();
    expectError(await submit(), 401, "UNAUTHORIZED");
    expect(onfido.requests).toEqual([]);
  });

  it("starts a check for the caller's applicant only; another account's record is untouched", async () => {
    const onfido = stubOnfido();
    const mine = await withApplicant(onfido);
    const other = await withApplicant(onfido);
    const before = await recordOf(other.id);
    await submit(mine.token);
    expect(onfido.requests.at(-1)!.body.applicant_id).toBe(mine.applicantId);
    expect(await recordOf(other.id)).toEqual(before);
  });

  it("a clear check whose face does not match the document rejects: a borrowed document verifies nobody", async () => {
    const onfido = stubOnfido();
    const account = await withApplicant(onfido);
    await submit(account.token);
    // Onfido's check result is its reports' aggregate; the face report is read all the same.
    onfido.finishCheck(onfido.created[0]!, { result: "clear", face: "consider" });
    await deliver(onfido.created[0]!);
    expect(await recordOf(account.id)).toMatchObject({ status: "REJECTED", verifiedDob: null });
  });

  it("a clear check without any facial similarity report rejects", async () => {
    const onfido = stubOnfido();
    const account = await withApplicant(onfido);
    const documentOnly = onfido.completeCheck(account.applicantId, { result: "clear", face: null });
    await deliver(documentOnly);
    expect(await recordOf(account.id)).toMatchObject({ status: "REJECTED", verifiedDob: null });
  });

  it("while a check runs, a clear event for another check of the same applicant changes nothing", async () => {
    const onfido = stubOnfido();
    const account = await withApplicant(onfido);
    await submit(account.token);
    const before = await recordOf(account.id);
    const stray = onfido.completeCheck(account.applicantId, { result: "clear", dob: "2015-01-01" });
    expect((await deliver(stray)).status).toBe(200);
    expect(await recordOf(account.id)).toEqual(before);
  });
});
