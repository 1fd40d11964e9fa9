// The spent-token set is never pruned for a key that may still verify a token (docs/double-blind.md
// "Where spent tokens are kept"): a key's spent records go only after the scheduled run has recorded the
// key as retired (absent from AGE_TOKEN_KEYS, current and previous) and the grace period
// (AGE_TOKEN_RETIREMENT_DAYS, default 30) has passed since; one run's reading of the setting alone
// deletes nothing, and a key seen in service again within its grace starts over. A key recorded as
// retired spends no token, and once its grace has passed it stays recorded, published again or not.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { seedEndUser, seedMerchant } from "../helpers/seed";
import { birthdayToday } from "../helpers/sessions";
import { loadTokenKeys } from "../../src/domain/age-tokens";
import { runScheduled } from "../maintenance/helpers";
import { devKey, freshKey, setting } from "./helpers";
import { request, stockTokens } from "./service-client";

const DAY = 86_400_000;
type Opened = { session_id: string; nonce: string };

let merchant: Awaited<ReturnType<typeof seedMerchant>>;
let adult: Awaited<ReturnType<typeof seedEndUser>>;
beforeAll(async () => {
  merchant = await seedMerchant();
  adult = await seedEndUser(birthdayToday(30));
});

/** A deployment whose 18 key is `key18` (with 21 unchanged), or which lacks the 18 key altogether. */
const withKeys = (entries: { age_over: number; current: string; previous?: string }[]) =>
  ({ ...env, AGE_TOKEN_KEYS: setting(entries) }) as Env;

/** The spent records of a key (base64 PKCS#8), by its token key id. */
async function spentRecordsOf(key: string): Promise<number> {
  const [id] = (await loadTokenKeys(setting([{ age_over: 18, current: key }]))).map((k) => k.tokenKeyIdHex);
  const row = await env.DB.prepare("SELECT count(*) AS n FROM spent_age_tokens WHERE token_key_id = ?").bind(id).first<{ n: number }>();
  return row!.n;
}

async function open(appEnv: Env): Promise<Opened> {
  const res = await request(
    "POST",
    "/api/age-verification/session",
    { apiKey: merchant.apiKey, body: { age_required: 18, callback_url: "https://merchant.example/hooks/age", double_blind: true } },
    appEnv,
  );
  expect(res.status, res.text).toBe(201);
  return res.body.data as Opened;
}

/** Opens a fresh session and answers it with the token, with no account. */
async function redeem(appEnv: Env, token: string) {
  const session = await open(appEnv);
  const res = await request(
    "POST",
    `/api/age-verification/session/${session.session_id}/complete`,
    { headers: { "x-session-nonce": session.nonce }, body: { consent: true, age_token: token } },
    appEnv,
  );
  expect([200, 409, 422], res.text).toContain(res.status);
  return res;
}

describe("the spent set keeps a key's records while the key may still verify", () => {
  it("a run under a setting that lacks a key still in service deletes nothing: the token stays spent (200, 409, run, refused, run, 409)", {
    timeout: 60_000,
  }, async () => {
    const key18 = await freshKey();
    const serving = withKeys([
      { age_over: 18, current: key18 },
      { age_over: 21, current: devKey(21) },
    ]);
    const lacking = withKeys([{ age_over: 21, current: devKey(21) }]);
    const [token] = await stockTokens(adult.token, 18, 1, {}, serving);
    expect((await redeem(serving, token!)).status).toBe(200);
    expect((await redeem(serving, token!)).body.error).toBe("AGE_TOKEN_SPENT");
    await runScheduled(lacking);
    // The setting is restored (a bad deploy rolled back): until a run sees the key served again, its
    // tokens are refused (the key is recorded as retired); then the token is still spent.
    expect((await redeem(serving, token!)).body.error).toBe("AGE_TOKEN_INVALID");
    await runScheduled(serving);
    expect((await redeem(serving, token!)).body.error).toBe("AGE_TOKEN_SPENT");
    expect(await spentRecordsOf(key18)).toBe(1);
  });

  it("the records go once the key has been retired for the grace period, counted from the run that first found it absent", {
    timeout: 60_000,
  }, async () => {
    const key18 = await freshKey();
    const serving = withKeys([
      { age_over: 18, current: key18 },
      { age_over: 21, current: devKey(21) },
    ]);
    const retired = withKeys([{ age_over: 21, current: devKey(21) }]);
    const [token] = await stockTokens(adult.token, 18, 1, {}, serving);
    expect((await redeem(serving, token!)).status).toBe(200);
    const t0 = Date.now();
    await runScheduled(retired, t0);
    await runScheduled(retired, t0 + 29 * DAY);
    expect(await spentRecordsOf(key18)).toBe(1);
    await runScheduled(retired, t0 + 30 * DAY + 1000);
    // Gone: the key was retired for 30 days.
    expect(await spentRecordsOf(key18)).toBe(0);
  });

  it("a key published again once its grace has passed approves nothing: neither its spent token (once 200, 409) nor a fresh one; the other keys still do", {
    timeout: 60_000,
  }, async () => {
    const key18 = await freshKey();
    const serving = withKeys([
      { age_over: 18, current: key18 },
      { age_over: 21, current: devKey(21) },
    ]);
    const retired = withKeys([{ age_over: 21, current: devKey(21) }]);
    const [spent, unspent] = await stockTokens(adult.token, 18, 2, {}, serving);
    const [other] = await stockTokens(adult.token, 21, 1, {}, serving);
    expect((await redeem(serving, spent!)).status).toBe(200);
    const t0 = Date.now();
    await runScheduled(retired, t0);
    await runScheduled(retired, t0 + 30 * DAY + 1000);
    expect(await spentRecordsOf(key18)).toBe(0);
    // The retired key comes back (an old setting redeployed): its records are gone, so its tokens, spent or
    // not, are refused, whatever runs meanwhile, and the session stays PENDING.
    await runScheduled(serving, t0 + 31 * DAY);
    for (const token of [spent!, unspent!]) {
      const session = await open(serving);
      const res = await request(
        "POST",
        `/api/age-verification/session/${session.session_id}/complete`,
        { headers: { "x-session-nonce": session.nonce }, body: { consent: true, age_token: token } },
        serving,
      );
      expect(res.status, res.text).toBe(422);
      expect(res.body.error).toBe("AGE_TOKEN_INVALID");
      const polled = await request("GET", `/api/age-verification/session/${session.session_id}`, { apiKey: merchant.apiKey }, serving);
      expect(polled.body.data.status).toBe("PENDING");
    }
    expect((await redeem(serving, other!)).status).toBe(200);
  });

  it("a key seen in service again starts its grace over; AGE_TOKEN_RETIREMENT_DAYS sets the period", { timeout: 60_000 }, async () => {
    const key18 = await freshKey();
    const serving = withKeys([
      { age_over: 18, current: key18 },
      { age_over: 21, current: devKey(21) },
    ]);
    const retired = withKeys([{ age_over: 21, current: devKey(21) }]);
    const [token] = await stockTokens(adult.token, 18, 1, {}, serving);
    expect((await redeem(serving, token!)).status).toBe(200);
    const t0 = Date.now();
    await runScheduled(retired, t0);
    await runScheduled(serving, t0 + 10 * DAY);
    await runScheduled(retired, t0 + 31 * DAY);
    expect(await spentRecordsOf(key18)).toBe(1);
    const shortGrace = { ...retired, AGE_TOKEN_RETIREMENT_DAYS: "2" } as Env;
    await runScheduled(shortGrace, t0 + 32 * DAY);
    expect(await spentRecordsOf(key18)).toBe(1);
    await runScheduled(shortGrace, t0 + 33 * DAY + 1000);
    expect(await spentRecordsOf(key18)).toBe(0);
  });
});
