// Mail a stranger can trigger is capped per day (docs/limits.md): the minute limits alone let one mailbox
// be mailed thousands of times a day. forgot-password: per address and day, known or not (the same answer
// either way, so the cap tells no one whether an account exists); change-email: confirmations per account
// and day (the address mailed is the caller's choice). Counted in D1 day windows; Retry-After is the time to
// the end of the UTC day, and a refused request mails nothing.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app";
import { PASSWORD, register } from "../helpers/accounts";
import { buildRequest, call, expectError, readResponse, type CallOptions } from "../helpers/http";
import { uniqueEmail } from "../helpers/seed";

const outboxSize = async (to: string) =>
  ((await call("GET", `/api/dev/outbox?to=${encodeURIComponent(to)}`)).body.data.messages as unknown[]).length;

/** A call through the app with these settings, once the work it deferred past its answer (the reset mail) has settled. */
async function settledWith(appEnv: Env, method: string, path: string, options: CallOptions) {
  const context = createExecutionContext();
  const result = await readResponse(await createApp().fetch(buildRequest(method, path, options), appEnv, context));
  await waitOnExecutionContext(context);
  return result;
}

/** Mid-day, so that the day window cannot end during the test; Retry-After is then 12 hours. */
async function atNoon(run: () => Promise<void>) {
  vi.useFakeTimers({ now: new Date("2026-11-24T12:00:00.000Z"), toFake: ["Date"] });
  try {
    await run();
  } finally {
    vi.useRealTimers();
  }
}

describe("forgot-password mails per address and day", () => {
  const appEnv = { ...env, RESET_MAILS_PER_DAY: "2" } as Env;
  const forgot = (email: string) => settledWith(appEnv, "POST", "/api/auth/forgot-password", { body: { email } });

  it("past the day's cap, 429 with Retry-After to the end of the day, and no more reset mail", () =>
    atNoon(async () => {
      const account = await register();
      const before = await outboxSize(account.email);
      for (let i = 0; i < 2; i++) expect((await forgot(account.email)).status).toBe(202);
      expect(await outboxSize(account.email)).toBe(before + 2);
      const refused = await forgot(account.email);
      expectError(refused, 429, "RATE_LIMITED");
      expect(Number(refused.headers.get("retry-after"))).toBe(12 * 3600);
      expect(await outboxSize(account.email)).toBe(before + 2);
      // Another address is not affected.
      const other = await register();
      expect((await forgot(other.email)).status).toBe(202);
      expect(await outboxSize(other.email)).toBeGreaterThan(0);
    }));

  it("an address with no account is capped the same way: the answers do not tell which addresses have accounts", () =>
    atNoon(async () => {
      const unknown = uniqueEmail("nobody");
      const answers = [await forgot(unknown), await forgot(unknown), await forgot(unknown)];
      expect(answers.map((res) => res.status)).toStrictEqual([202, 202, 429]);
      expect(await outboxSize(unknown)).toBe(0);
    }));

  it("counts the address as one, whatever its letter case", () =>
    atNoon(async () => {
      const account = await register();
      expect((await forgot(account.email)).status).toBe(202);
      expect((await forgot(account.email.toUpperCase())).status).toBe(202);
      expectError(await forgot(account.email), 429, "RATE_LIMITED");
    }));
});

describe("change-email confirmations per account and day", () => {
  const appEnv = { ...env, EMAIL_CHANGE_MAILS_PER_DAY: "2" } as Env;
  const changeEmail = (token: string, newEmail: string) =>
    settledWith(appEnv, "POST", "/api/users/change-email", { token, body: { newEmail, password: PASSWORD } });

  it("past the day's cap, 429 with Retry-After to the end of the day, and the address asked for is not mailed", () =>
    atNoon(async () => {
      const account = await register();
      const first = uniqueEmail("new");
      const second = uniqueEmail("new");
      expect((await changeEmail(account.token, first)).status).toBe(202);
      expect((await changeEmail(account.token, second)).status).toBe(202);
      const victim = uniqueEmail("victim");
      const refused = await changeEmail(account.token, victim);
      expectError(refused, 429, "RATE_LIMITED");
      expect(Number(refused.headers.get("retry-after"))).toBe(12 * 3600);
      expect(await outboxSize(victim)).toBe(0);
      expect(await outboxSize(first)).toBe(1);
      // Another account is not affected.
      const other = await register();
      const elsewhere = uniqueEmail("new");
      expect((await changeEmail(other.token, elsewhere)).status).toBe(202);
      expect(await outboxSize(elsewhere)).toBe(1);
    }));
});
