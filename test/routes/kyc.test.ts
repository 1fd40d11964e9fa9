import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { kycRecords } from "../../src/db/schema";
import { call, expectError } from "../helpers/http";
import { callWith, onfidoEnv, verifyKycViaSandbox, storedKyc } from "../helpers/kyc";
import { seedAccount } from "../helpers/seed";
import { productionEnv } from "../helpers/production-env";
import { dbOfAccount } from "../helpers/shards";
import { rowWhere } from "../helpers/rows";

const applicant = { firstName: "Ada", lastName: "Lovelace", dob: "1990-06-15" };
const recordOf = async (userId: string) => rowWhere(await dbOfAccount(userId), kycRecords, eq(kycRecords.userId, userId));

afterEach(() => vi.restoreAllMocks());

describe("KYC (sandbox provider): happy paths", () => {
  it("reports NOT_STARTED for an account without an applicant", async () => {
    const { token } = await seedAccount({ userType: "PERSONAL" });
    const res = await call("GET", "/api/kyc/status", { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { status: "NOT_STARTED", verifiedAt: null } });
  });

  it("creates an applicant (201 {applicantId}) and the account becomes PENDING", async () => {
    const { id, token } = await seedAccount({ userType: "PERSONAL" });
    const res = await call("POST", "/api/kyc/create-applicant", {
      token,
      body: { ...applicant, address: { country: "gbr", street: "12 St James's Square", town: "London", postcode: "SW1Y 4JH" } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true, data: { applicantId: expect.any(String) } });
    expect((await call("GET", "/api/kyc/status", { token })).body.data).toEqual({ status: "PENDING", verifiedAt: null });
    const row = await recordOf(id);
    expect(row).toMatchObject({ applicantId: res.body.data.applicantId, status: "PENDING", verifiedDob: null, checkId: null });
  });

  it("keeps neither the name nor the address", async () => {
    const { id, token } = await seedAccount({ userType: "PERSONAL" });
    await call("POST", "/api/kyc/create-applicant", {
      token,
      body: {
        firstName: "Augusta",
        lastName: "Byron",
        dob: "1990-06-15",
        address: { country: "GBR", street: "Marylebone Road", town: "Westminster", postcode: "NW1 5LR" },
      },
    });
    const stored = JSON.stringify(await recordOf(id));
    for (const value of ["Augusta", "Byron", "Marylebone", "Westminster", "NW1", "GBR"]) expect(stored).not.toContain(value);
  });

  it("hands out an SDK token for the account's applicant", async () => {
    const { token } = await seedAccount({ userType: "PERSONAL" });
    const created = await call("POST", "/api/kyc/create-applicant", { token, body: applicant });
    const res = await call("GET", "/api/kyc/sdk-token", { token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ token: expect.stringMatching(/^sandbox_sdk_/), applicantId: created.body.data.applicantId });
  });

  it("sandbox completion verifies the date of birth given at creation, without any network", async () => {
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const { id, token } = await seedAccount({ userType: "PERSONAL" });
    await verifyKycViaSandbox(token, "2000-02-29");
    const status = await call("GET", "/api/kyc/status", { token });
    expect(status.body.data).toEqual({ status: "VERIFIED", verifiedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });
    expect(await storedKyc(id)).toEqual({ status: "VERIFIED", verifiedDob: "2000-02-29" });
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("a rejected account can try again and then be verified", async () => {
    const { id, token } = await seedAccount({ userType: "PERSONAL" });
    await verifyKycViaSandbox(token, "1985-01-31", "consider");
    expect(await storedKyc(id)).toEqual({ status: "REJECTED", verifiedDob: null });
    expect((await call("GET", "/api/kyc/status", { token })).body.data).toEqual({ status: "REJECTED", verifiedAt: null });
    const again = await call("POST", "/api/kyc/sandbox/complete", { token });
    expect(again.body.data.status).toBe("VERIFIED");
    expect(await storedKyc(id)).toEqual({ status: "VERIFIED", verifiedDob: "1985-01-31" });
  });

  it("a verified account stays verified: a later check changes nothing", async () => {
    const { id, token } = await seedAccount({ userType: "PERSONAL" });
    await verifyKycViaSandbox(token, "1970-12-01");
    const before = await recordOf(id);
    const res = await call("POST", "/api/kyc/sandbox/complete", { token, body: { result: "consider" } });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe("VERIFIED");
    expect(await recordOf(id)).toEqual(before);
  });
});

describe("KYC: errors", () => {
  const invalid: [string, unknown, string][] = [
    ["no first name", { lastName: "L", dob: "1990-01-01" }, "firstName"],
    ["a blank last name", { firstName: "A", lastName: "   ", dob: "1990-01-01" }, "lastName"],
    ["a name with a forbidden character", { firstName: "A<script>", lastName: "L", dob: "1990-01-01" }, "firstName"],
    ["no date of birth", { firstName: "A", lastName: "L" }, "dob"],
    ["a date that does not exist", { ...applicant, dob: "2001-02-29" }, "dob"],
    ["a date in another format", { ...applicant, dob: "15/06/1990" }, "dob"],
    ["a date of birth in the future", { ...applicant, dob: "2999-01-01" }, "dob"],
    ["a date of birth more than 150 years ago", { ...applicant, dob: "1850-01-01" }, "dob"],
    ["a two-letter country", { ...applicant, address: { country: "GB", postcode: "SW1" } }, "address.country"],
    ["an unknown country", { ...applicant, address: { country: "XXX", postcode: "SW1" } }, "address.country"],
    ["an address without a postcode", { ...applicant, address: { country: "GBR" } }, "address.postcode"],
    ["a number for a name", { ...applicant, firstName: 42 }, "firstName"],
  ];
  for (const [what, body, path] of invalid) {
    it(`refuses ${what} with 422 and creates nothing`, async () => {
      const { id, token } = await seedAccount({ userType: "PERSONAL" });
      const res = await call("POST", "/api/kyc/create-applicant", { token, body });
      expectError(res, 422, "VALIDATION_FAILED");
      expect(res.body.errors!.map((e) => e.path)).toContain(path);
      expect(await recordOf(id)).toBeUndefined();
    });
  }

  it("refuses a second applicant with 409 APPLICANT_EXISTS and keeps the first", async () => {
    const { id, token } = await seedAccount({ userType: "PERSONAL" });
    await call("POST", "/api/kyc/create-applicant", { token, body: applicant });
    const before = await recordOf(id);
    const res = await call("POST", "/api/kyc/create-applicant", { token, body: { ...applicant, dob: "1980-01-01" } });
    expectError(res, 409, "APPLICANT_EXISTS");
    expect(await recordOf(id)).toEqual(before);
  });

  it("refuses an SDK token before an applicant exists with 409 APPLICANT_REQUIRED", async () => {
    const { token } = await seedAccount({ userType: "PERSONAL" });
    expectError(await call("GET", "/api/kyc/sdk-token", { token }), 409, "APPLICANT_REQUIRED");
  });

  it("refuses sandbox completion before an applicant exists with 409 APPLICANT_REQUIRED", async () => {
    const { id, token } = await seedAccount({ userType: "PERSONAL" });
    expectError(await call("POST", "/api/kyc/sandbox/complete", { token }), 409, "APPLICANT_REQUIRED");
    expect(await recordOf(id)).toBeUndefined();
  });

  it("refuses an unknown sandbox result with 422 and changes nothing", async () => {
    const { id, token } = await seedAccount({ userType: "PERSONAL" });
    await call("POST", "/api/kyc/create-applicant", { token, body: applicant });
    const before = await recordOf(id);
    expectError(await call("POST", "/api/kyc/sandbox/complete", { token, body: { result: "approve" } }), 422, "VALIDATION_FAILED");
    expect(await recordOf(id)).toEqual(before);
  });
});

describe("KYC: security", () => {
  it("every KYC endpoint needs a signed-in account", async () => {
    expectError(await call("POST", "/api/kyc/create-applicant", { body: applicant }), 401, "UNAUTHORIZED");
    expectError(await call("GET", "/api/kyc/sdk-token"), 401, "UNAUTHORIZED");
    expectError(await call("GET", "/api/kyc/status"), 401, "UNAUTHORIZED");
    expectError(await call("POST", "/api/kyc/sandbox/complete"), 401, "UNAUTHORIZED");
  });

  it("one account's verification does not touch another account", async () => {
    const first = await seedAccount({ userType: "PERSONAL" });
    // On the first's shard, so that a read which forgot the account would meet the first's rows.
    const second = await seedAccount({ userType: "PERSONAL", shard: first.shard });
    await call("POST", "/api/kyc/create-applicant", { token: second.token, body: applicant });
    await verifyKycViaSandbox(first.token, "1990-01-01");
    expect((await call("GET", "/api/kyc/status", { token: second.token })).body.data.status).toBe("PENDING");
    expect(await storedKyc(second.id)).toEqual({ status: "PENDING", verifiedDob: null });
  });

  it("sandbox completion does not exist in the production configuration", async () => {
    const { id, token } = await seedAccount({ userType: "PERSONAL" });
    await call("POST", "/api/kyc/create-applicant", { token, body: applicant });
    // Production with the sandbox refuses to serve at all (test/http/fail-closed.test.ts); with its
    // provider configured, the sandbox route does not exist.
    expectError(
      await callWith({ ...env, ENVIRONMENT: "production", PROVIDER: "sandbox" }, "POST", "/api/kyc/sandbox/complete", { token }),
      503,
      "MISCONFIGURED",
    );
    const res = await callWith(productionEnv(), "POST", "/api/kyc/sandbox/complete", { token });
    expectError(res, 404, "NOT_FOUND");
    expect((await recordOf(id))?.status).toBe("PENDING");
  });

  it("sandbox completion does not exist when the provider is Onfido", async () => {
    vi.spyOn(globalThis, "fetch").mockRejectedValue(new Error("no network in this test"));
    const { token } = await seedAccount({ userType: "PERSONAL" });
    const res = await callWith(onfidoEnv(), "POST", "/api/kyc/sandbox/complete", { token });
    expectError(res, 404, "NOT_FOUND");
  });
});
