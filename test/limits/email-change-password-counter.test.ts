// change-email checks the account's password, so it counts on the account's password counter (docs/limits.md,
// passwordChangesPerAccount), shared with change-password: a stolen token cannot guess the password through either route
// past PASSWORD_CHANGES_PER_HOUR. The clock is set mid-hour.
import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, it, vi } from "vitest";
import { register } from "../helpers/accounts";
import { expectError } from "../helpers/http";
import { callWith } from "../helpers/kyc";
import { uniqueEmail } from "../helpers/seed";

beforeEach(() => vi.useFakeTimers({ now: Math.floor(Date.now() / 3_600_000) * 3_600_000 + 1_800_000, toFake: ["Date"] }));
afterEach(() => vi.useRealTimers());

describe("email changes on the password counter", () => {
  it("wrong passwords through change-email use up the counter that change-password shares", async () => {
    const appEnv = { ...env, PASSWORD_CHANGES_PER_HOUR: "2" } as Env;
    const account = await register();
    for (let i = 0; i < 2; i++) {
      expectError(
        await callWith(appEnv, "POST", "/api/users/change-email", {
          token: account.token,
          body: { newEmail: uniqueEmail("new"), password: "not the password" },
        }),
        401,
        "INVALID_CREDENTIALS",
      );
    }
    expectError(
      await callWith(appEnv, "POST", "/api/users/change-email", {
        token: account.token,
        body: { newEmail: uniqueEmail("new"), password: account.password },
      }),
      429,
      "RATE_LIMITED",
    );
    expectError(
      await callWith(appEnv, "POST", "/api/users/change-password", {
        token: account.token,
        body: { currentPassword: account.password, newPassword: "a new password here" },
      }),
      429,
      "RATE_LIMITED",
    );
  });
});
