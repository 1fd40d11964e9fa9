// Rotating JWT_SECRET and PASSWORD_PEPPER: the previous version keeps working exactly as long as it
// should, and new data is made under the current one.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { JWT_LIFETIME_SECONDS, signAccountToken } from "../../src/lib/jwt";
import { keyId } from "../../src/lib/key-id";
import { hashPassword, verifyPassword } from "../../src/lib/password";
import { verifyAccountTokenAnyVersion } from "../../src/config/secret-versions";
import { settingsOf } from "../../src/config/settings";
import { dbHolding } from "../helpers/shards";
import { rowWhere } from "../helpers/rows";

const OLD = "old-jwt-secret-0123456789abcdef0123456789abcdef";
const NEW = "new-jwt-secret-0123456789abcdef0123456789abcdef";
const ROTATED_AT = Date.parse("2026-11-20T12:00:00Z") / 1000;
const rotated = (overrides: Partial<Env> = {}): Env =>
  ({
    ...env,
    JWT_SECRET: NEW,
    JWT_SECRET_PREVIOUS: OLD,
    JWT_SECRET_ROTATED_AT: new Date(ROTATED_AT * 1000).toISOString(),
    ...overrides,
  }) as Env;

describe("JWT_SECRET rotation", () => {
  it("accepts a token signed before the rotation with the previous secret, until it expires", async () => {
    const issued = ROTATED_AT - 60;
    const token = await signAccountToken(OLD, "usr_a", 0, issued);
    expect((await verifyAccountTokenAnyVersion(settingsOf(rotated()), token, ROTATED_AT + 10))?.sub).toBe("usr_a");
    // Without the previous secret configured, the old token is refused at once.
    expect(await verifyAccountTokenAnyVersion(settingsOf(rotated({ JWT_SECRET_PREVIOUS: undefined })), token, ROTATED_AT + 10)).toBeNull();
  });

  it("refuses the previous secret one token lifetime after the rotation, even if still configured", async () => {
    // A token forged with a leaked old secret, claiming to be issued just before the rotation.
    const forged = await signAccountToken(OLD, "usr_a", 0, ROTATED_AT + JWT_LIFETIME_SECONDS - 5);
    expect(await verifyAccountTokenAnyVersion(settingsOf(rotated()), forged, ROTATED_AT + JWT_LIFETIME_SECONDS)).toBeNull();
  });

  it("refuses a token the previous secret signed after the rotation (it can only be forged)", async () => {
    const forged = await signAccountToken(OLD, "usr_a", 0, ROTATED_AT + 30);
    expect(await verifyAccountTokenAnyVersion(settingsOf(rotated()), forged, ROTATED_AT + 60)).toBeNull();
  });

  it("new tokens are signed with the current secret", async () => {
    const token = await signAccountToken(NEW, "usr_b", 0, ROTATED_AT + 30);
    expect((await verifyAccountTokenAnyVersion(settingsOf(rotated()), token, ROTATED_AT + 60))?.sub).toBe("usr_b");
    expect(await verifyAccountTokenAnyVersion(settingsOf({ ...env, JWT_SECRET: OLD } as Env), token, ROTATED_AT + 60)).toBeNull();
  });
});

describe("PASSWORD_PEPPER rotation", () => {
  const OLD_PEPPER = "old-pepper-0123456789abcdef0123456789abcdef";
  const NEW_PEPPER = "new-pepper-0123456789abcdef0123456789abcdef";

  it("the hash names its pepper version", async () => {
    const stored = await hashPassword("s3cret-password", NEW_PEPPER, 1000);
    expect(stored.split("$")[4]).toBe(await keyId(NEW_PEPPER));
  });

  it("a hash under the previous pepper still verifies, and asks to be re-hashed", async () => {
    const stored = await hashPassword("s3cret-password", OLD_PEPPER, 1000);
    expect(await verifyPassword("s3cret-password", stored, [NEW_PEPPER, OLD_PEPPER])).toEqual({ valid: true, needsRehash: true });
    expect((await verifyPassword("wrong-password", stored, [NEW_PEPPER, OLD_PEPPER])).valid).toBe(false);
    expect((await verifyPassword("s3cret-password", stored, [NEW_PEPPER])).valid).toBe(false);
  });

  it("a hash from before pepper versions (no id) verifies under either pepper and asks to be re-hashed", async () => {
    const stored = (await hashPassword("s3cret-password", OLD_PEPPER, 1000)).split("$").slice(0, 4).join("$");
    expect(await verifyPassword("s3cret-password", stored, [NEW_PEPPER, OLD_PEPPER])).toEqual({ valid: true, needsRehash: true });
    expect((await verifyPassword("s3cret-password", stored, [NEW_PEPPER])).valid).toBe(false);
  });

  it("a hash naming an unknown pepper is refused without trying the configured ones", async () => {
    const stored = await hashPassword("s3cret-password", OLD_PEPPER, 1000);
    const renamed = stored.replace(/\$k[0-9a-f]{8}$/, "$k00000000");
    expect((await verifyPassword("s3cret-password", renamed, [NEW_PEPPER, OLD_PEPPER])).valid).toBe(false);
  });
});

describe("PASSWORD_PEPPER rotation through login", () => {
  it("an account hashed under the previous pepper signs in, and its hash moves to the current pepper", async () => {
    const { register, freshAddress } = await import("../helpers/accounts");
    const { callWith } = await import("../helpers/kyc");
    const { users } = await import("../../src/db/schema");
    const { eq } = await import("drizzle-orm");
    const account = await register();
    const NEW_PEPPER = "rotated-pepper-0123456789abcdef0123456789abcdef";
    const rotatedEnv = { ...env, PASSWORD_PEPPER: NEW_PEPPER, PASSWORD_PEPPER_PREVIOUS: env.PASSWORD_PEPPER } as Env;
    const hashOf = async () =>
      (await rowWhere(await dbHolding("SELECT 1 FROM users WHERE email = ?", account.email), users, eq(users.email, account.email)))!
        .passwordHash;
    expect((await hashOf()).endsWith(`$${await keyId(env.PASSWORD_PEPPER!)}`)).toBe(true);

    const res = await callWith(rotatedEnv, "POST", "/api/auth/login", {
      body: { email: account.email, password: account.password },
      headers: freshAddress(),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await hashOf()).endsWith(`$${await keyId(NEW_PEPPER)}`)).toBe(true);
    // The previous pepper can now go: the account signs in under the current one alone.
    const again = await callWith({ ...env, PASSWORD_PEPPER: NEW_PEPPER } as Env, "POST", "/api/auth/login", {
      body: { email: account.email, password: account.password },
      headers: freshAddress(),
    });
    expect(again.status).toBe(200);
  });
});
