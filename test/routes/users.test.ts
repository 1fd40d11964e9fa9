import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../../src/db/schema";
import { PASSWORD, register, registerVerified } from "../helpers/accounts";
import { verifyKycViaSandbox } from "../helpers/kyc";
import { call, expectError } from "../helpers/http";
import { countAllShards, dbOfAccount } from "../helpers/shards";

describe("profile", () => {
  it("reads the signed-in account", async () => {
    const account = await register();
    const res = await call("GET", "/api/users/me", { token: account.token });
    expect(res.status).toBe(200);
    expect(res.body.data.user).toEqual(account.user);
  });

  it("updates names, and the company name of a business", async () => {
    const personal = await register();
    const res = await call("PATCH", "/api/users/me", { token: personal.token, body: { firstName: "Grace", lastName: null } });
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({ firstName: "Grace", lastName: null });
    const business = await register({ userType: "BUSINESS", companyName: "Old Name" });
    const renamed = await call("PATCH", "/api/users/me", { token: business.token, body: { companyName: "New Name" } });
    expect(renamed.body.data.user.companyName).toBe("New Name");
  });

  it("refuses a company name on a personal account, an empty body and wrong types, changing nothing", async () => {
    const account = await register();
    for (const body of [{ companyName: "Acme" }, {}, { firstName: 42 }, { firstName: "" }]) {
      const res = await call("PATCH", "/api/users/me", { token: account.token, body });
      expectError(res, 422, "VALIDATION_FAILED");
    }
    expect((await call("GET", "/api/users/me", { token: account.token })).body.data.user).toEqual(account.user);
  });

  it("takes the Bearer scheme name in any case", async () => {
    const account = await register();
    expect((await call("GET", "/api/users/me", { headers: { authorization: `bearer ${account.token}` } })).status).toBe(200);
  });

  it("needs a valid token", async () => {
    expectError(await call("GET", "/api/users/me"), 401, "UNAUTHORIZED");
    expectError(await call("GET", "/api/users/me", { token: "not.a.jwt" }), 401, "UNAUTHORIZED");
    expectError(await call("GET", "/api/users/me", { headers: { authorization: "Basic abc" } }), 401, "UNAUTHORIZED");
  });
});

describe("change password", () => {
  it("returns a fresh token; the old one is refused and the new password works", async () => {
    const account = await register();
    const res = await call("POST", "/api/users/change-password", {
      token: account.token,
      body: { currentPassword: PASSWORD, newPassword: "another long secret" },
    });
    expect(res.status).toBe(200);
    expectError(await call("GET", "/api/users/me", { token: account.token }), 401, "UNAUTHORIZED");
    expect((await call("GET", "/api/users/me", { token: res.body.data.token })).status).toBe(200);
    expect((await call("POST", "/api/auth/login", { body: { email: account.email, password: "another long secret" } })).status).toBe(200);
  });

  it("refuses a wrong current password with 401 and a short new one with 422, changing nothing", async () => {
    const account = await register();
    expectError(
      await call("POST", "/api/users/change-password", {
        token: account.token,
        body: { currentPassword: "wrong one!", newPassword: "another long secret" },
      }),
      401,
      "INVALID_CREDENTIALS",
    );
    const short = await call("POST", "/api/users/change-password", {
      token: account.token,
      body: { currentPassword: PASSWORD, newPassword: "short" },
    });
    expectError(short, 422, "VALIDATION_FAILED");
    expect(short.body.errors![0]!.path).toBe("newPassword");
    expect((await call("GET", "/api/users/me", { token: account.token })).status).toBe(200);
    expect((await call("POST", "/api/auth/login", { body: { email: account.email, password: PASSWORD } })).status).toBe(200);
  });
});

describe("account deletion", () => {
  it("is refused with 403 before the email is verified, and changes nothing", async () => {
    const account = await register();
    expectError(await call("DELETE", "/api/users/account", { token: account.token }), 403, "EMAIL_NOT_VERIFIED");
    expect((await call("GET", "/api/users/me", { token: account.token })).status).toBe(200);
  });

  it("removes the account: its token is refused and the email can register again", async () => {
    const account = await registerVerified();
    const res = await call("DELETE", "/api/users/account", { token: account.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true });
    const [row] = await (await dbOfAccount(account.user.id)).select({ n: count() }).from(users).where(eq(users.email, account.email));
    expect(row!.n).toBe(0);
    expectError(await call("GET", "/api/users/me", { token: account.token }), 401, "UNAUTHORIZED");
    expectError(await call("POST", "/api/auth/login", { body: { email: account.email, password: PASSWORD } }), 401, "INVALID_CREDENTIALS");
    await register({ email: account.email });
  });

  it("removes the account's KYC record (applicant and verified date of birth), and no one else's", async () => {
    const kycRows = (column: "user_id" | "applicant_id", value: string) =>
      countAllShards(`SELECT count(*) AS n FROM kyc_records WHERE ${column} = ?`, value).then((n) => ({ n }));
    const account = await registerVerified();
    const other = await registerVerified();
    const { applicantId } = await verifyKycViaSandbox(account.token, "1990-01-01");
    await verifyKycViaSandbox(other.token, "1991-02-02");
    expect(await kycRows("user_id", account.user.id)).toEqual({ n: 1 });

    expect((await call("DELETE", "/api/users/account", { token: account.token })).status).toBe(200);
    expect(await kycRows("user_id", account.user.id)).toEqual({ n: 0 });
    expect(await kycRows("applicant_id", applicantId)).toEqual({ n: 0 });
    expect((await call("GET", "/api/kyc/status", { token: other.token })).body.data).toEqual({
      status: "VERIFIED",
      verifiedAt: expect.any(String),
    });
  });
});
