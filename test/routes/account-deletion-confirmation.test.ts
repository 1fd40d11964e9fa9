// Deleting an account asks for the password, or a sign-in of the last 10 minutes (docs/api-contract.md §Users): a
// token lifted from a browser hours ago cannot delete the account, and a 1.1.0 client that signs in and
// deletes at once, with no body, still can.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../../src/db/schema";
import { signAccountToken } from "../../src/lib/jwt";
import { call, expectError } from "../helpers/http";
import { SEEDED_PASSWORD, seedAccount } from "../helpers/seed";
import { dbOfAccount } from "../helpers/shards";
import { rowWhere } from "../helpers/rows";

const ELEVEN_MINUTES = 11 * 60;
/** A valid token for the account, issued `secondsAgo` ago (as a sign-in of the morning would be). */
const tokenIssuedAgo = (userId: string, secondsAgo: number) =>
  signAccountToken(env.JWT_SECRET!, userId, 0, Math.floor(Date.now() / 1000) - secondsAgo);
const exists = async (userId: string) => (await rowWhere(await dbOfAccount(userId), users, eq(users.id, userId))) !== undefined;
const deleteAccount = (token: string, body?: unknown) => call("DELETE", "/api/users/account", { token, body });

describe("DELETE /api/users/account confirmation", () => {
  it("deletes with no body right after a sign-in, as a 1.1.0 client does", async () => {
    const account = await seedAccount();
    const res = await deleteAccount(account.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await exists(account.id)).toBe(false);
  });

  it("refuses a token of a sign-in older than 10 minutes with no password, 401, and keeps the account", async () => {
    const account = await seedAccount();
    const stale = await tokenIssuedAgo(account.id, ELEVEN_MINUTES);
    // The token itself is valid: it reads the account.
    expect((await call("GET", "/api/users/me", { token: stale })).status).toBe(200);
    const res = await deleteAccount(stale);
    expectError(res, 401, "INVALID_CREDENTIALS");
    expect(res.body.message).toMatch(/password/);
    expect(await exists(account.id)).toBe(true);
  });

  it("with an old sign-in, refuses a wrong password and deletes with the right one", async () => {
    const account = await seedAccount();
    const stale = await tokenIssuedAgo(account.id, ELEVEN_MINUTES);
    expectError(await deleteAccount(stale, { password: "not the password" }), 401, "INVALID_CREDENTIALS");
    expect(await exists(account.id)).toBe(true);
    const res = await deleteAccount(stale, { password: SEEDED_PASSWORD });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await exists(account.id)).toBe(false);
  });

  it("checks a password that is sent even right after a sign-in", async () => {
    const account = await seedAccount();
    expectError(await deleteAccount(account.token, { password: "wrong" }), 401, "INVALID_CREDENTIALS");
    expect(await exists(account.id)).toBe(true);
  });

  it("keeps the unverified-email refusal first, and a malformed password is 422", async () => {
    const unverified = await seedAccount({ emailVerified: false });
    expectError(await deleteAccount(unverified.token, { password: SEEDED_PASSWORD }), 403, "EMAIL_NOT_VERIFIED");
    const account = await seedAccount();
    expectError(await deleteAccount(account.token, { password: 42 }), 422, "VALIDATION_FAILED");
    expect(await exists(account.id)).toBe(true);
  });
});
