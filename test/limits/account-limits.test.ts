// Per-account limits (src/domain/limits/account-limits.ts, docs/limits.md): each one is hit, answers 429
// RATE_LIMITED with an honest Retry-After and changes nothing; the ordinary user and other accounts are
// not affected; and the counters store nothing that names a session.
import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { eq, sql } from "drizzle-orm";
import { accountCounters, kycRecords, users } from "../../src/db/schema";
import { PASSWORD, registerVerified } from "../helpers/accounts";
import { expectError } from "../helpers/http";
import { callWith, ONFIDO_URL, stubOnfido } from "../helpers/kyc";
import { db, seedAccount, seedEndUser, seedMerchant } from "../helpers/seed";
import { openSession, storedStatus } from "../helpers/sessions";
import { ACCOUNT_LIMITS, refuseOverLimit, type CounterKey } from "../../src/domain/limits";
import { parseSettings } from "../../src/config/settings";
import { dbOfAccount } from "../helpers/shards";

/** The configuration with the per-account limits at their production values (the code's fallbacks). */
const productionLimits = (overrides: Partial<Env> = {}): Env =>
  ({
    ...env,
    COMPLETIONS_PER_DAY: undefined,
    KYC_SDK_TOKENS_PER_HOUR: undefined,
    KYC_CHECKS_PER_DAY: undefined,
    PASSWORD_CHANGES_PER_HOUR: undefined,
    ...overrides,
  }) as unknown as Env;

const completeWith = (appEnv: Env, token: string, session: { session_id: string; nonce: string }, consent = true) =>
  callWith(appEnv, "POST", `/api/age-verification/session/${session.session_id}/complete`, {
    token,
    body: { nonce: session.nonce, consent },
  });

/**
 * The windows are fixed hours and days (UTC): a run that crossed xx:00 or midnight would find its counts
 * reset halfway. The clock (Date, in this isolate: the Worker's code runs here too) is frozen at a moment
 * with at least 15 minutes left in its hour and its day: now, or just past the next hour when that is
 * closer than 15 minutes. Frozen at most 15 minutes ahead, so sessions' expiry alarms stay in the future.
 */
beforeEach(() => {
  const now = Date.now();
  const left = 3600 - (Math.floor(now / 1000) % 3600);
  const frozen = left > 15 * 60 ? now : now + (left + 60) * 1000;
  vi.useFakeTimers({ toFake: ["Date"], now: frozen });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const secondsToNextBoundary = (windowSeconds: number) => windowSeconds - (Math.floor(Date.now() / 1000) % windowSeconds);

function expectRateLimited(res: Awaited<ReturnType<typeof callWith>>, windowSeconds: number) {
  expectError(res, 429, "RATE_LIMITED");
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(secondsToNextBoundary(windowSeconds) + 1);
}

describe("completions per account", () => {
  it("an ordinary user answers 30 requests in a day; the 31st is refused with Retry-After and the session stays pending", {
    timeout: 60_000,
  }, async () => {
    const appEnv = productionLimits();
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    for (let i = 0; i < 30; i++) {
      const res = await completeWith(appEnv, user.token, await openSession(merchant.apiKey), i % 2 === 0);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const eleventh = await openSession(merchant.apiKey);
    expectRateLimited(await completeWith(appEnv, user.token, eleventh), 86_400);
    expect(await storedStatus(eleventh.session_id)).toBe("PENDING");

    // Another adult is not affected by the first one's counter.
    const other = await seedEndUser("1985-05-05");
    expect((await completeWith(appEnv, other.token, eleventh)).status).toBe(200);
  });

  it("the daily limit applies across hours: with 2 a day the third answer of the day is refused until the day ends", async () => {
    const appEnv = productionLimits({ COMPLETIONS_PER_DAY: "2" });
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    for (let i = 0; i < 2; i++) expect((await completeWith(appEnv, user.token, await openSession(merchant.apiKey))).status).toBe(200);
    const res = await completeWith(appEnv, user.token, await openSession(merchant.apiKey));
    expectRateLimited(res, 86_400);
    // The day window, not the hour one, is what the client must wait for.
    expect(Math.abs(Number(res.headers.get("retry-after")) - secondsToNextBoundary(86_400))).toBeLessThanOrEqual(2);
  });

  it("with two windows over their limits, Retry-After names the one that ends last: the wait the client must make", () => {
    // Every limit has one window today; the refusal still reads them all (src/domain/limits/account-limits.ts).
    const settings = parseSettings(env);
    const now = Date.UTC(2026, 10, 28, 10, 30);
    const nowSeconds = now / 1000;
    const window = (seconds: number) => ({ name: `w${seconds}`, setting: "COMPLETIONS_PER_DAY" as const, fallback: 1, seconds });
    const row = (seconds: number): CounterKey => ({
      window: window(seconds),
      end: Math.floor(nowSeconds / seconds) * seconds + seconds,
      key: `k${seconds}`,
      expiresAt: "",
    });
    const over = [{ count: 2 }];
    for (const rows of [
      [row(3600), row(86_400)],
      [row(86_400), row(3600)],
    ]) {
      const refusal = (() => {
        try {
          refuseOverLimit({ ...settings, accountLimits: { ...settings.accountLimits, COMPLETIONS_PER_DAY: 1 } }, rows, [over, over], now);
        } catch (error) {
          return error as { headers?: Record<string, string> };
        }
      })();
      expect(refusal?.headers?.["Retry-After"]).toBe(String(13.5 * 3600));
    }
  });

  it("completions are counted by the day only: no hour window, so no counter says in which hour an account answered", async () => {
    const appEnv = productionLimits({ COMPLETIONS_PER_DAY: "1" });
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    expect((await completeWith(appEnv, user.token, await openSession(merchant.apiKey))).status).toBe(200);
    const res = await completeWith(appEnv, user.token, await openSession(merchant.apiKey));
    expectRateLimited(res, 86_400);
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(Math.abs(retryAfter - secondsToNextBoundary(86_400))).toBeLessThanOrEqual(2);
    expect(ACCOUNT_LIMITS.completionsPerAccount.map((window) => window.seconds)).toEqual([86_400]);
  });

  it("a completion with a wrong nonce, or of a session already answered, counts toward the limit (docs/limits.md)", async () => {
    const appEnv = productionLimits({ COMPLETIONS_PER_DAY: "3" });
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const answered = await openSession(merchant.apiKey);
    expect((await completeWith(appEnv, user.token, answered)).status).toBe(200); // 1
    expectError(await completeWith(appEnv, user.token, answered), 409, "SESSION_NOT_PENDING"); // 2
    const other = await openSession(merchant.apiKey);
    expectError(await completeWith(appEnv, user.token, { ...other, nonce: "not-the-nonce" }), 404, "NOT_FOUND"); // 3
    // The fourth is refused though only one session was answered: the refusals counted too.
    expectRateLimited(await completeWith(appEnv, user.token, other), 86_400);
    expect(await storedStatus(other.session_id)).toBe("PENDING");
  });

  it("the counters hold only hashes and counts: no session id, account id or nonce is stored", async () => {
    const appEnv = productionLimits();
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const session = await openSession(merchant.apiKey);
    expect((await completeWith(appEnv, user.token, session)).status).toBe(200);
    const stored = JSON.stringify(await db().select().from(accountCounters));
    expect(stored).toContain('"count"');
    for (const secret of [session.session_id, session.nonce, user.id, user.email]) expect(stored).not.toContain(secret);
  });
  // The account is read in the same D1 batch that counts (src/domain/verification/answerer.ts): the counters are
  // written only for the account that read accepts, and a body that fails validation reaches no batch.
  it("a refused answer counts nothing: an invalid body (422), a signed-out token, an identity that verifies another account", async () => {
    const appEnv = productionLimits({ COMPLETIONS_PER_DAY: "1" });
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const session = await openSession(merchant.apiKey);
    // The account's own shard holds its rows and counters.
    const accountDb = await dbOfAccount(user.id);
    const counters = async () => (await accountDb.select().from(accountCounters)).length;
    const before = await counters();

    expect(
      (
        await callWith(appEnv, "POST", `/api/age-verification/session/${session.session_id}/complete`, {
          token: user.token,
          body: { nonce: session.nonce, consent: "yes" },
        })
      ).status,
    ).toBe(422);
    await accountDb
      .update(kycRecords)
      .set({ status: "REJECTED", rejectionReason: "IDENTITY_ALREADY_VERIFIED" })
      .where(eq(kycRecords.userId, user.id));
    expectError(await completeWith(appEnv, user.token, session), 409, "IDENTITY_ALREADY_VERIFIED");
    await accountDb.update(kycRecords).set({ status: "VERIFIED", rejectionReason: null }).where(eq(kycRecords.userId, user.id));
    await accountDb
      .update(users)
      .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, user.id));
    expectError(await completeWith(appEnv, user.token, session), 401, "UNAUTHORIZED");
    // The body is validated before the sign-in is looked at (a double-blind session must be told from
    // the nonce, which may be in the body, before anything of an account: docs/double-blind.md): an
    // invalid body is 422 whoever sends it, and counts nothing either.
    expectError(
      await callWith(appEnv, "POST", `/api/age-verification/session/${session.session_id}/complete`, {
        token: user.token,
        body: { nonce: session.nonce, consent: "yes" },
      }),
      422,
      "VALIDATION_FAILED",
    );
    expect(await counters()).toBe(before);

    // With a limit of 1 a day, the account's first accepted answer still goes through.
    const current = await accountDb
      .update(users)
      .set({ tokenVersion: sql`${users.tokenVersion} - 1` })
      .where(eq(users.id, user.id))
      .returning();
    expect(current[0]?.tokenVersion).toBeGreaterThanOrEqual(0);
    expect((await completeWith(appEnv, user.token, session)).status).toBe(200);
    expect(await counters()).toBe(before + 1); // its day window
  });
});

describe("KYC provider calls per account", () => {
  it("SDK tokens: 10 an hour, the 11th refused; another account still gets one", async () => {
    const appEnv = productionLimits();
    const user = await seedEndUser("1990-01-01");
    for (let i = 0; i < 10; i++) expect((await callWith(appEnv, "GET", "/api/kyc/sdk-token", { token: user.token })).status).toBe(200);
    expectRateLimited(await callWith(appEnv, "GET", "/api/kyc/sdk-token", { token: user.token }), 3600);
    const other = await seedEndUser("1990-01-01");
    expect((await callWith(appEnv, "GET", "/api/kyc/sdk-token", { token: other.token })).status).toBe(200);
  });

  it("check submissions: 3 a day, the 4th refused before the provider is called", async () => {
    const appEnv = productionLimits();
    const account = await seedAccount({ userType: "PERSONAL" });
    const created = await callWith(appEnv, "POST", "/api/kyc/create-applicant", {
      token: account.token,
      body: { firstName: "Ada", lastName: "Lovelace", dob: "1990-01-01" },
    });
    expect(created.status).toBe(201);
    for (let i = 0; i < 3; i++) expect((await callWith(appEnv, "POST", "/api/kyc/submit", { token: account.token })).status).toBe(202);
    expectRateLimited(await callWith(appEnv, "POST", "/api/kyc/submit", { token: account.token }), 86_400);
  });

  it("check submissions at the provider: the 4th is refused before any request leaves for it", async () => {
    const onfido = stubOnfido();
    const appEnv = productionLimits({ PROVIDER: "onfido", ONFIDO_API_URL: ONFIDO_URL });
    const account = await seedAccount({ userType: "PERSONAL" });
    const created = await callWith(appEnv, "POST", "/api/kyc/create-applicant", {
      token: account.token,
      body: { firstName: "Ada", lastName: "Lovelace", dob: "1990-01-01" },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // Each submission starts a paid check: the one before came back rejected ("consider"), so the account
    // may try again (a PENDING check would be answered without a new one).
    const rejectLastCheck = () => db().update(kycRecords).set({ status: "REJECTED" }).where(eq(kycRecords.userId, account.id));
    for (let i = 0; i < 3; i++) {
      expect((await callWith(appEnv, "POST", "/api/kyc/submit", { token: account.token })).status).toBe(202);
      await rejectLastCheck();
    }
    expect(onfido.requests.filter((r) => r.method === "POST" && r.path === "/checks")).toHaveLength(3);
    const before = onfido.requests.length;
    expectRateLimited(await callWith(appEnv, "POST", "/api/kyc/submit", { token: account.token }), 86_400);
    expect(onfido.requests.slice(before)).toEqual([]);
  });
});

describe("change-password per account", () => {
  it("10 attempts an hour: after 10 wrong guesses even the right password is refused; the password is unchanged", async () => {
    const appEnv = productionLimits();
    const account = await registerVerified();
    for (let i = 0; i < 10; i++) {
      const res = await callWith(appEnv, "POST", "/api/users/change-password", {
        token: account.token,
        body: { currentPassword: `guess-${i}-wrong`, newPassword: "a brand new password" },
      });
      expectError(res, 401, "INVALID_CREDENTIALS");
    }
    const refused = await callWith(appEnv, "POST", "/api/users/change-password", {
      token: account.token,
      body: { currentPassword: PASSWORD, newPassword: "a brand new password" },
    });
    expectRateLimited(refused, 3600);
    // The old token still works: nothing was changed.
    expect((await callWith(appEnv, "GET", "/api/users/me", { token: account.token })).status).toBe(200);
  });

  it("an ordinary user changes the password at the first try", async () => {
    const account = await registerVerified();
    const res = await callWith(productionLimits(), "POST", "/api/users/change-password", {
      token: account.token,
      body: { currentPassword: PASSWORD, newPassword: "a brand new password" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});
