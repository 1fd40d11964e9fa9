// resend-verification has a daily cap per account (docs/limits.md): the minute limit alone let one
// address be mailed about 7,000 times a day. Counted in the D1 day window; Retry-After is the time to the
// end of the UTC day, and a refused request mails nothing.
import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { register } from "../helpers/accounts";
import { call, expectError } from "../helpers/http";
import { callWith } from "../helpers/kyc";

const outboxSize = async (to: string) =>
  ((await call("GET", `/api/dev/outbox?to=${encodeURIComponent(to)}`)).body.data.messages as unknown[]).length;

describe("verification mails per account and day", () => {
  it("past the day's cap the resend is refused with Retry-After to the end of the day, and nothing is mailed", async () => {
    // Mid-day, so that the day window cannot end during the test.
    vi.useFakeTimers({ now: new Date("2026-11-24T12:00:00.000Z"), toFake: ["Date"] });
    try {
      const appEnv = { ...env, VERIFICATION_MAILS_PER_DAY: "2" } as Env;
      const account = await register();
      const before = await outboxSize(account.email);
      for (let i = 0; i < 2; i++)
        expect((await callWith(appEnv, "POST", "/api/auth/resend-verification", { token: account.token })).status).toBe(202);
      const refused = await callWith(appEnv, "POST", "/api/auth/resend-verification", { token: account.token });
      expectError(refused, 429, "RATE_LIMITED");
      expect(Number(refused.headers.get("retry-after"))).toBe(12 * 3600);
      expect(await outboxSize(account.email)).toBe(before + 2);
      // Another account is not affected.
      const other = await register();
      expect((await callWith(appEnv, "POST", "/api/auth/resend-verification", { token: other.token })).status).toBe(202);
    } finally {
      vi.useRealTimers();
    }
  });
});
