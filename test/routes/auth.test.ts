import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { emailTokens, users } from "../../src/db/schema";
import { sha256Hex } from "../../src/lib/crypto";
import { freshAddress, mailedToken, PASSWORD, register, registerVerified } from "../helpers/accounts";
import { call, callSettled, expectError } from "../helpers/http";
import { uniqueEmail } from "../helpers/seed";
import { countAllShards, dbOfAccount } from "../helpers/shards";
import { rowWhere } from "../helpers/rows";

const userCount = () => countAllShards("SELECT count(*) AS n FROM users");

describe("register", () => {
  it("creates a PERSONAL account, returns user and token, and mails a verification link", async () => {
    const email = uniqueEmail("Mixed.Case");
    const res = await call("POST", "/api/auth/register", {
      body: { email: `  ${email.toUpperCase()} `, password: PASSWORD, userType: "PERSONAL", firstName: "Ada" },
      headers: freshAddress(),
    });
    expect(res.status).toBe(201);
    expect(res.body.data.user).toMatchObject({
      email: email.toLowerCase(),
      firstName: "Ada",
      lastName: null,
      companyName: null,
      userType: "PERSONAL",
      emailVerified: false,
    });
    expect(res.body.data.user.id).toMatch(/^usr_/);
    expect(res.body.data.user).not.toHaveProperty("passwordHash");
    const me = await call("GET", "/api/users/me", { token: res.body.data.token });
    expect(me.body.data.user.id).toBe(res.body.data.user.id);
    expect(await mailedToken(email.toLowerCase())).toMatch(/^[\w-]{43}$/);
  });

  it("creates a BUSINESS account with its company name", async () => {
    const account = await register({ userType: "BUSINESS", companyName: "Acme Wines Ltd" });
    expect(account.user).toMatchObject({ userType: "BUSINESS", companyName: "Acme Wines Ltd" });
  });

  it("refuses an email already taken, whatever its case and spaces, with 409", async () => {
    const account = await register();
    const res = await call("POST", "/api/auth/register", {
      body: { email: ` ${account.email.toUpperCase()}`, password: PASSWORD, userType: "PERSONAL" },
      headers: freshAddress(),
    });
    expectError(res, 409, "EMAIL_TAKEN");
  });

  it.each([
    ["email", { email: "not-an-email", password: PASSWORD, userType: "PERSONAL" }],
    ["password", { email: "x@example.test", password: "short", userType: "PERSONAL" }],
    ["password", { email: "x@example.test", password: "p".repeat(129), userType: "PERSONAL" }],
    ["userType", { email: "x@example.test", password: PASSWORD, userType: "ADMIN" }],
    ["companyName", { email: "x@example.test", password: PASSWORD, userType: "BUSINESS" }],
    ["email", { password: PASSWORD, userType: "PERSONAL" }],
    ["password", { email: "x@example.test", password: 12345678, userType: "PERSONAL" }],
  ])("answers 422 naming %s and writes nothing", async (path, body) => {
    const before = await userCount();
    const res = await call("POST", "/api/auth/register", { body, headers: freshAddress() });
    expectError(res, 422, "VALIDATION_FAILED");
    expect(res.body.errors!.map((e) => e.path)).toContain(path);
    expect(await userCount()).toBe(before);
  });

  it("limits registrations per client address with 429 and Retry-After", async () => {
    const headers = freshAddress();
    // The limiter counts in fixed one-minute windows; allowing for one window boundary, the limit of 10
    // must refuse a request within 21 attempts, and never before the 11th.
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof call>> | undefined;
    while (!limited && statuses.length < 21) {
      const res = await call("POST", "/api/auth/register", { body: { email: "bad", password: "x", userType: "PERSONAL" }, headers });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(limited, `statuses: ${statuses.join(",")}`).toBeDefined();
    expect(statuses.length).toBeGreaterThanOrEqual(11);
    expectError(limited!, 429, "RATE_LIMITED");
    expect(limited!.headers.get("retry-after")).toBe("60");
  });
});

describe("login", () => {
  it("signs in with the right password, whatever the email's case", async () => {
    const account = await register();
    const res = await call("POST", "/api/auth/login", { body: { email: account.email.toUpperCase(), password: PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body.data.user.email).toBe(account.email);
    expect((await call("GET", "/api/users/me", { token: res.body.data.token })).status).toBe(200);
  });

  it("answers the same 401 for a wrong password and an unknown email", async () => {
    const account = await register();
    const wrong = await call("POST", "/api/auth/login", { body: { email: account.email, password: "wrong password" } });
    const unknown = await call("POST", "/api/auth/login", { body: { email: uniqueEmail("ghost"), password: "wrong password" } });
    expectError(wrong, 401, "INVALID_CREDENTIALS");
    expect(unknown.body).toEqual(wrong.body);
  });

  it("limits attempts per email from one address: over 5 in a minute is 429 with Retry-After, even with the right password", async () => {
    const account = await register();
    const address = freshAddress();
    // Fixed one-minute windows: allowing for one boundary, a refusal must come within 11 attempts.
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof call>> | undefined;
    while (!limited && statuses.length < 11) {
      const res = await call("POST", "/api/auth/login", {
        headers: address,
        body: { email: account.email, password: statuses.length < 5 ? "wrong password" : PASSWORD },
      });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(limited, `statuses: ${statuses.join(",")}`).toBeDefined();
    expect(statuses.length).toBeGreaterThanOrEqual(6);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expectError(limited!, 429, "RATE_LIMITED");
    expect(limited!.headers.get("retry-after")).toBe("60");
    // A stranger's attempts from that address do not lock the owner out from their own address.
    expect(
      (await call("POST", "/api/auth/login", { headers: freshAddress(), body: { email: account.email, password: PASSWORD } })).status,
    ).toBe(200);
  });

  it("limits login attempts per client address across emails: over 20 in a minute is 429, other addresses unaffected", async () => {
    const account = await register();
    const address = freshAddress();
    // Credential stuffing: one address, a new email each time. Allowing one window boundary, within 41.
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof call>> | undefined;
    while (!limited && statuses.length < 41) {
      const res = await call("POST", "/api/auth/login", {
        headers: address,
        body: { email: uniqueEmail("stuffed"), password: "wrong password" },
      });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(limited, `statuses: ${statuses.join(",")}`).toBeDefined();
    expect(statuses.length).toBeGreaterThanOrEqual(21);
    expectError(limited!, 429, "RATE_LIMITED");
    expect(limited!.headers.get("retry-after")).toBe("60");
    // The account's owner, from another address, signs in at once.
    expect(
      (await call("POST", "/api/auth/login", { headers: freshAddress(), body: { email: account.email, password: PASSWORD } })).status,
    ).toBe(200);
  });

  it("an IPv6 client is one client across its /64: changing the low 64 bits does not reset the login limit", async () => {
    const account = await register();
    const prefix = `2001:db8:${(Date.now() % 0xffff).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}`;
    const statuses: number[] = [];
    let limited = false;
    while (!limited && statuses.length < 11) {
      const headers = { "cf-connecting-ip": `${prefix}:${statuses.length + 1}::1` };
      const res = await call("POST", "/api/auth/login", { headers, body: { email: account.email, password: "wrong password" } });
      statuses.push(res.status);
      limited = res.status === 429;
    }
    expect(limited, `statuses: ${statuses.join(",")}`).toBe(true);
    expect(statuses.length).toBeGreaterThanOrEqual(6);
  });

  it("re-hashes a password stored with older parameters", async () => {
    const account = await register();
    const { hashPassword } = await import("../../src/lib/password");
    const shard = await dbOfAccount(account.user.id);
    await shard
      .update(users)
      .set({ passwordHash: await hashPassword(PASSWORD, env.PASSWORD_PEPPER!, 1_000) })
      .where(eq(users.email, account.email));
    expect((await call("POST", "/api/auth/login", { body: { email: account.email, password: PASSWORD } })).status).toBe(200);
    const row = await rowWhere(shard, users, eq(users.email, account.email));
    expect(row!.passwordHash).toMatch(/^pbkdf2-sha256\$100000\$/);
  });
});

describe("email verification", () => {
  it("verifies with the mailed token, once", async () => {
    const account = await register();
    const token = await mailedToken(account.email);
    const res = await call("POST", "/api/auth/verify-email", { body: { token } });
    expect(res.status).toBe(200);
    expect(res.body.data.user.emailVerified).toBe(true);
    expectError(await call("POST", "/api/auth/verify-email", { body: { token } }), 400, "INVALID_TOKEN");
  });

  it("stores only a hash of the token", async () => {
    const account = await register();
    const token = await mailedToken(account.email);
    const shard = await dbOfAccount(account.user.id);
    const rows = await shard.select().from(emailTokens);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows.some((r) => r.tokenHash === "")).toBe(false);
    expect(await rowWhere(shard, emailTokens, eq(emailTokens.tokenHash, await sha256Hex(token)))).toBeDefined();
  });

  it("refuses an unknown token and an expired one", async () => {
    expectError(await call("POST", "/api/auth/verify-email", { body: { token: "nope" } }), 400, "INVALID_TOKEN");
    const account = await register();
    const token = await mailedToken(account.email);
    await (await dbOfAccount(account.user.id))
      .update(emailTokens)
      .set({ expiresAt: "2000-01-01T00:00:00.000Z" })
      .where(eq(emailTokens.tokenHash, await sha256Hex(token)));
    expectError(await call("POST", "/api/auth/verify-email", { body: { token } }), 400, "INVALID_TOKEN");
  });

  it("resends a fresh link that replaces the old one, and refuses once verified", async () => {
    const account = await register();
    const first = await mailedToken(account.email);
    expect((await call("POST", "/api/auth/resend-verification", { token: account.token })).status).toBe(202);
    const second = await mailedToken(account.email);
    expect(second).not.toBe(first);
    expectError(await call("POST", "/api/auth/verify-email", { body: { token: first } }), 400, "INVALID_TOKEN");
    expect((await call("POST", "/api/auth/verify-email", { body: { token: second } })).status).toBe(200);
    expectError(await call("POST", "/api/auth/resend-verification", { token: account.token }), 409, "ALREADY_VERIFIED");
  });

  it("needs a credential to resend", async () => {
    expectError(await call("POST", "/api/auth/resend-verification"), 401, "UNAUTHORIZED");
  });
});

describe("password reset", () => {
  it("answers 202 for any address, and mails only an existing account", async () => {
    const ghost = uniqueEmail("ghost");
    const res = await callSettled("POST", "/api/auth/forgot-password", { body: { email: ghost }, headers: freshAddress() });
    expect(res.status).toBe(202);
    const outbox = await call("GET", `/api/dev/outbox?to=${ghost}`);
    expect(outbox.body.data.messages).toEqual([]);
  });

  it("sets a new password with the token, once; every earlier token stops working", async () => {
    const account = await register();
    await callSettled("POST", "/api/auth/forgot-password", { body: { email: account.email }, headers: freshAddress() });
    const token = await mailedToken(account.email);
    const res = await call("POST", "/api/auth/reset-password", {
      body: { token, newPassword: "a brand new secret" },
      headers: freshAddress(),
    });
    expect(res.status).toBe(200);
    expectError(await call("GET", "/api/users/me", { token: account.token }), 401, "UNAUTHORIZED");
    expect((await call("POST", "/api/auth/login", { body: { email: account.email, password: "a brand new secret" } })).status).toBe(200);
    const again = await call("POST", "/api/auth/reset-password", {
      body: { token, newPassword: "another secret 1" },
      headers: freshAddress(),
    });
    expectError(again, 400, "INVALID_TOKEN");
  });

  it("refuses an expired reset token and a verify token used as a reset token", async () => {
    const account = await register();
    const verifyToken = await mailedToken(account.email);
    expectError(
      await call("POST", "/api/auth/reset-password", {
        body: { token: verifyToken, newPassword: "a brand new secret" },
        headers: freshAddress(),
      }),
      400,
      "INVALID_TOKEN",
    );
    await callSettled("POST", "/api/auth/forgot-password", { body: { email: account.email }, headers: freshAddress() });
    const token = await mailedToken(account.email);
    await (await dbOfAccount(account.user.id))
      .update(emailTokens)
      .set({ expiresAt: "2000-01-01T00:00:00.000Z" })
      .where(eq(emailTokens.tokenHash, await sha256Hex(token)));
    expectError(
      await call("POST", "/api/auth/reset-password", { body: { token, newPassword: "a brand new secret" }, headers: freshAddress() }),
      400,
      "INVALID_TOKEN",
    );
    expect((await call("POST", "/api/auth/login", { body: { email: account.email, password: PASSWORD } })).status).toBe(200);
  });

  it("refuses a short new password with 422 and keeps the token usable", async () => {
    const account = await register();
    await callSettled("POST", "/api/auth/forgot-password", { body: { email: account.email }, headers: freshAddress() });
    const token = await mailedToken(account.email);
    const res = await call("POST", "/api/auth/reset-password", { body: { token, newPassword: "short" }, headers: freshAddress() });
    expectError(res, 422, "VALIDATION_FAILED");
    expect(res.body.errors![0]!.path).toBe("newPassword");
    expect(
      (await call("POST", "/api/auth/reset-password", { body: { token, newPassword: "long enough now" }, headers: freshAddress() })).status,
    ).toBe(200);
  });
});

describe("logout", () => {
  it("signs out everywhere: every token issued before is refused", async () => {
    const account = await register();
    const second = (await call("POST", "/api/auth/login", { body: { email: account.email, password: PASSWORD } })).body.data.token;
    expect((await call("POST", "/api/auth/logout", { token: account.token })).status).toBe(204);
    expectError(await call("GET", "/api/users/me", { token: account.token }), 401, "UNAUTHORIZED");
    expectError(await call("GET", "/api/users/me", { token: second }), 401, "UNAUTHORIZED");
  });
});

describe("email change", () => {
  it("changes the address once the token mailed to the new address is confirmed", async () => {
    const account = await registerVerified();
    const newEmail = uniqueEmail("moved");
    const res = await call("POST", "/api/users/change-email", { token: account.token, body: { newEmail, password: PASSWORD } });
    expect(res.status).toBe(202);
    // Nothing changes before confirmation.
    expect((await call("GET", "/api/users/me", { token: account.token })).body.data.user.email).toBe(account.email);
    const confirmed = await call("POST", "/api/auth/confirm-email-change", { body: { token: await mailedToken(newEmail) } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data.user).toMatchObject({ email: newEmail, emailVerified: true });
    expectError(await call("GET", "/api/users/me", { token: account.token }), 401, "UNAUTHORIZED");
    expect((await call("POST", "/api/auth/login", { body: { email: newEmail, password: PASSWORD } })).status).toBe(200);
  });

  it("refuses a wrong password, a taken address and a bad address", async () => {
    const account = await registerVerified();
    const other = await register();
    expectError(
      await call("POST", "/api/users/change-email", {
        token: account.token,
        body: { newEmail: uniqueEmail(), password: "wrong password" },
      }),
      401,
      "INVALID_CREDENTIALS",
    );
    expectError(
      await call("POST", "/api/users/change-email", { token: account.token, body: { newEmail: other.email, password: PASSWORD } }),
      409,
      "EMAIL_TAKEN",
    );
    const bad = await call("POST", "/api/users/change-email", { token: account.token, body: { newEmail: "nope", password: PASSWORD } });
    expectError(bad, 422, "VALIDATION_FAILED");
    expect(bad.body.errors![0]!.path).toBe("newEmail");
  });

  it("refuses the confirmation when the address was taken meanwhile", async () => {
    const account = await registerVerified();
    const newEmail = uniqueEmail("contested");
    await call("POST", "/api/users/change-email", { token: account.token, body: { newEmail, password: PASSWORD } });
    const token = await mailedToken(newEmail);
    await register({ email: newEmail });
    expectError(await call("POST", "/api/auth/confirm-email-change", { body: { token } }), 409, "EMAIL_TAKEN");
  });
});

describe("signing out everywhere also spends email links", () => {
  it("a password reset spends a pending email change: the account cannot be taken over afterwards", async () => {
    const victim = await registerVerified();
    const attackerEmail = uniqueEmail("attacker");
    // Someone holding the password starts an email change to their own address...
    await call("POST", "/api/users/change-email", { token: victim.token, body: { newEmail: attackerEmail, password: PASSWORD } });
    const changeToken = await mailedToken(attackerEmail);
    // ...the owner notices and resets the password...
    await callSettled("POST", "/api/auth/forgot-password", { body: { email: victim.email }, headers: freshAddress() });
    const resetToken = await mailedToken(victim.email);
    expect(
      (
        await call("POST", "/api/auth/reset-password", {
          body: { token: resetToken, newPassword: "the owner's new secret" },
          headers: freshAddress(),
        })
      ).status,
    ).toBe(200);
    // ...and the pending change no longer works.
    expectError(await call("POST", "/api/auth/confirm-email-change", { body: { token: changeToken } }), 400, "INVALID_TOKEN");
    expect((await call("POST", "/api/auth/login", { body: { email: victim.email, password: "the owner's new secret" } })).status).toBe(200);
  });

  it("an email change spends reset links mailed to the old address, and logout spends every link", async () => {
    const account = await registerVerified();
    await callSettled("POST", "/api/auth/forgot-password", { body: { email: account.email }, headers: freshAddress() });
    const oldReset = await mailedToken(account.email);
    const newEmail = uniqueEmail("new-home");
    await call("POST", "/api/users/change-email", { token: account.token, body: { newEmail, password: PASSWORD } });
    expect((await call("POST", "/api/auth/confirm-email-change", { body: { token: await mailedToken(newEmail) } })).status).toBe(200);
    expectError(
      await call("POST", "/api/auth/reset-password", {
        body: { token: oldReset, newPassword: "hijacked password" },
        headers: freshAddress(),
      }),
      400,
      "INVALID_TOKEN",
    );

    const other = await register();
    const verifyToken = await mailedToken(other.email);
    expect((await call("POST", "/api/auth/logout", { token: other.token })).status).toBe(204);
    expectError(await call("POST", "/api/auth/verify-email", { body: { token: verifyToken } }), 400, "INVALID_TOKEN");
  });
});

describe("mail rate limits", () => {
  /** Calls until a 429 (fixed one-minute windows: allow one boundary) and returns the statuses seen. */
  async function untilLimited(send: () => Promise<Awaited<ReturnType<typeof call>>>, limit: number) {
    const statuses: number[] = [];
    while (statuses.length < 2 * limit + 1) {
      const res = await send();
      statuses.push(res.status);
      if (res.status === 429) {
        expectError(res, 429, "RATE_LIMITED");
        return statuses;
      }
    }
    throw new Error(`never limited: ${statuses.join(",")}`);
  }

  it("forgot-password is limited per email, whatever the client address", async () => {
    const account = await register();
    const statuses = await untilLimited(
      () => call("POST", "/api/auth/forgot-password", { body: { email: account.email }, headers: freshAddress() }),
      5,
    );
    expect(statuses.length).toBeGreaterThanOrEqual(6);
  });

  it("resend-verification and change-email share a per-account mail limit", async () => {
    const account = await register();
    const statuses = await untilLimited(() => call("POST", "/api/auth/resend-verification", { token: account.token }), 5);
    expect(statuses.length).toBeGreaterThanOrEqual(6);
    expect(statuses.slice(0, 5)).toEqual([202, 202, 202, 202, 202]);
  });
});
