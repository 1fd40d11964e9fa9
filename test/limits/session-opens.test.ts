// Opening sessions is limited per account (docs/limits.md; docs/api-contract.md §Limits): SESSION_OPENS_PER_MINUTE
// opens a minute (test-key answers count too) and PENDING_SESSIONS_MAX open at once, 429 RATE_LIMITED
// with Retry-After. A refused open leaves nothing: no log row, no session, no callback. The clock is set
// 20 seconds into a minute, so the minute's window cannot end during a test.
import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createApiKey } from "../../src/domain/keys/api-keys";
import { expectError } from "../helpers/http";
import { callWith } from "../helpers/kyc";
import { root, seedMerchant } from "../helpers/seed";
import { CALLBACK_URL } from "../helpers/sessions";
import { verificationSessions } from "../../src/db/schema";
import { eq } from "drizzle-orm";
import { dbOfAccount } from "../helpers/shards";

const open = (appEnv: Env, apiKey: string) =>
  callWith(appEnv, "POST", "/api/age-verification/session", { apiKey, body: { age_required: 18, callback_url: CALLBACK_URL } });
const logged = async (accountId: string) =>
  (await (await dbOfAccount(accountId)).select().from(verificationSessions).where(eq(verificationSessions.accountId, accountId))).length;

let minuteStart: number;
beforeEach(() => {
  minuteStart = Math.ceil(Date.now() / 60_000) * 60_000;
  vi.useFakeTimers({ now: minuteStart + 20_000, toFake: ["Date"] });
});
afterEach(() => vi.useRealTimers());

describe("opening sessions per account", () => {
  it("past SESSION_OPENS_PER_MINUTE an open is 429 with Retry-After to the minute's end, and leaves nothing", async () => {
    const appEnv = { ...env, SESSION_OPENS_PER_MINUTE: "3" } as Env;
    const merchant = await seedMerchant();
    for (let i = 0; i < 3; i++) expect((await open(appEnv, merchant.apiKey)).status).toBe(201);
    const refused = await open(appEnv, merchant.apiKey);
    expectError(refused, 429, "RATE_LIMITED");
    expect(Number(refused.headers.get("retry-after"))).toBe(40);
    expect(await logged(merchant.account.id)).toBe(3);
    // Another account is not affected.
    const other = await seedMerchant();
    expect((await open(appEnv, other.apiKey)).status).toBe(201);
  });

  it("test-key answers count on the same minute: two opens and one answer use up three", async () => {
    const appEnv = { ...env, SESSION_OPENS_PER_MINUTE: "3" } as Env;
    const merchant = await seedMerchant();
    const testKey = await createApiKey(root().onShard(merchant.account.shard), merchant.account.id, "test", "test");
    const first = await open(appEnv, testKey.apiKey);
    expect((await open(appEnv, testKey.apiKey)).status).toBe(201);
    const answered = await callWith(appEnv, "POST", `/api/age-verification/session/${first.body.data.session_id}/test-outcome`, {
      apiKey: testKey.apiKey,
      body: { outcome: "APPROVED" },
    });
    expect(answered.status).toBe(200);
    expectError(await open(appEnv, testKey.apiKey), 429, "RATE_LIMITED");
  });

  it("past PENDING_SESSIONS_MAX an open is 429; once one resolves, the account opens again", async () => {
    const appEnv = { ...env, PENDING_SESSIONS_MAX: "2" } as Env;
    const merchant = await seedMerchant();
    const first = await open(appEnv, merchant.apiKey);
    expect((await open(appEnv, merchant.apiKey)).status).toBe(201);
    const refused = await open(appEnv, merchant.apiKey);
    expectError(refused, 429, "RATE_LIMITED");
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(await logged(merchant.account.id)).toBe(2);
    const declined = await callWith(appEnv, "POST", `/api/age-verification/session/${first.body.data.session_id}/decline`, {
      headers: { "x-session-nonce": first.body.data.nonce },
    });
    expect(declined.status).toBe(200);
    expect((await open(appEnv, merchant.apiKey)).status).toBe(201);
  });
});
