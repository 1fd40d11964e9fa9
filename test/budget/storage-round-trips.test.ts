// Production latency is dominated by storage round trips, so each merchant and end-user route has a
// counted budget. Counted, not timed: the numbers are the same on any machine.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { countingEnv, type Counts } from "../helpers/counting-env";
import { buildRequest } from "../helpers/http";
import { seedEndUser, seedMerchant } from "../helpers/seed";
import { openSession } from "../helpers/sessions";
import { offerFor, verifiedAdult } from "../attestations/helpers";
import { PRE_AUTHORIZED, body, keyPair, nonce, proof, tokenRequest } from "../attestations/wire";

async function measure(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const { env, counts } = countingEnv();
  const ctx = createExecutionContext();
  const response = await createApp().fetch(buildRequest(method, path, { headers, body }), env, ctx);
  // Totals over every D1 shard: sharding (docs/operations.md) keeps each budget, whichever shard the account is on.
  const totals = ({ d1, durableObject }: Counts) => ({ d1, durableObject });
  const onRequestPath = totals(counts);
  await waitOnExecutionContext(ctx);
  return { status: response.status, onRequestPath, afterResponse: totals(counts) };
}

describe("storage round trips per request", () => {
  it("open: the key check, then one Durable Object call (which writes the log row)", async () => {
    const merchant = await seedMerchant();
    await openSession(merchant.apiKey); // stamps lastUsedAt, so this minute's requests write nothing more
    const res = await measure(
      "POST",
      "/api/age-verification/session",
      { "x-api-key": merchant.apiKey },
      { age_required: 18, callback_url: "https://m.example.com/cb" },
    );
    expect(res.status).toBe(201);
    expect(res.afterResponse).toEqual({ d1: 1, durableObject: 1 });
  });

  it("poll: one D1 query (the key) and one Durable Object call", async () => {
    const merchant = await seedMerchant();
    const opened = await openSession(merchant.apiKey);
    const res = await measure("GET", `/api/age-verification/session/${opened.session_id}`, { "x-api-key": merchant.apiKey });
    expect(res.status).toBe(200);
    expect(res.onRequestPath).toEqual({ d1: 1, durableObject: 1 });
  });

  it("key authentication stamps lastUsedAt once a minute, in waitUntil, not on the request path", async () => {
    const merchant = await seedMerchant();
    const first = await measure("GET", `/api/age-verification/session/ses_${"A".repeat(24)}`, { "x-api-key": merchant.apiKey });
    expect(first.afterResponse.d1).toBe(2); // the key read, then the lastUsedAt write handed to waitUntil
    const second = await measure("GET", `/api/age-verification/session/ses_${"A".repeat(24)}`, { "x-api-key": merchant.apiKey });
    expect(second.afterResponse.d1).toBe(1);
  });

  it("end-user request: the account read and one Durable Object call", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const opened = await openSession(merchant.apiKey);
    const res = await measure("GET", `/api/age-verification/session/${opened.session_id}/request?nonce=${opened.nonce}`, {
      authorization: `Bearer ${user.token}`,
    });
    expect(res.status).toBe(200);
    expect(res.onRequestPath).toEqual({ d1: 1, durableObject: 1 });
  });

  // The per-account completion limit (docs/limits.md) rides in the account read's D1 batch: the account with
  // its verified date of birth and passkey flag, then the day counter (UPSERT … RETURNING),
  // one round trip (src/domain/verification/answerer.ts). A Rate Limiting binding would cost none, but its windows are
  // 10 or 60 seconds (docs/limits.md).
  // The first Durable Object call is the session's read before any sign-in is looked at: on a double-blind
  // session an Authorization header is refused before anything of the account is read (docs/double-blind.md),
  // so the Worker must know the session's kind first. The second is the answer itself.
  it("complete: one D1 batch (the account with its verified date of birth, and the completion counter) and two Durable Object calls (the double-blind check, then the answer)", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const opened = await openSession(merchant.apiKey);
    const res = await measure(
      "POST",
      `/api/age-verification/session/${opened.session_id}/complete`,
      { authorization: `Bearer ${user.token}` },
      { nonce: opened.nonce, consent: true },
    );
    expect(res.status).toBe(200);
    expect(res.onRequestPath).toEqual({ d1: 1, durableObject: 2 });
  });

  // The bench's floor makes these three statements for its credential request (test/bench/floor/worker.ts):
  // a change here must change the floor too, or the bench's attestations ratio measures something else.
  it("credential request: three D1 round trips (the token read, the nonce and the token spent) and no Durable Object call, for a batch of 30", async () => {
    const person = await verifiedAdult();
    const offer = await offerFor(person.token);
    const exchanged = await tokenRequest({
      grant_type: PRE_AUTHORIZED,
      "pre-authorized_code": offer.credential_offer.grants[PRE_AUTHORIZED]["pre-authorized_code"],
      tx_code: offer.tx_code,
    });
    expect(exchanged.status).toBe(200);
    const cNonce = await nonce();
    const pair = await keyPair();
    const jwts = await Promise.all(Array.from({ length: 30 }, () => proof(pair, cNonce)));
    const res = await measure("POST", "/credential", { authorization: `Bearer ${exchanged.body.access_token}` }, body(jwts));
    expect(res.status).toBe(200);
    expect(res.afterResponse).toEqual({ d1: 3, durableObject: 0 });
  });

  it("a malformed session id costs no Durable Object call", async () => {
    const merchant = await seedMerchant();
    const res = await measure("GET", "/api/age-verification/session/not-a-session", { "x-api-key": merchant.apiKey });
    expect(res.status).toBe(404);
    expect(res.onRequestPath.durableObject).toBe(0);
  });
});
