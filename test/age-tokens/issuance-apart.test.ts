// Issuance stands apart from every session (docs/double-blind.md "Issuance names no session"): a
// request that could name one (an X-Session-Nonce header, a query string, a Referer with a path or a
// query, a body field of its own) is refused before the sign-in is checked, and nothing is counted or
// signed. And issuance counts before it signs: an account over its daily limit costs no private-key
// operation.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { call, expectError } from "../helpers/http";
import { seedEndUser } from "../helpers/seed";
import { birthdayToday } from "../helpers/sessions";
import { allShards } from "../helpers/shards";
import { b64url } from "./rfc-client";
import { askForTokens, directoryKey, stockTokens, tokenRequests } from "./service-client";

afterEach(() => vi.restoreAllMocks());

const requestsFor = async (count: number) => (await tokenRequests(await directoryKey(18), count)).map((p) => b64url(p.tokenRequest));
const counters = async () => JSON.stringify(await allShards("SELECT key, count FROM account_counters ORDER BY key"));

/** Counts the private-key operations (RSA-RAW signatures) made while `run` runs. */
async function rsaSignaturesDuring(run: () => Promise<unknown>): Promise<number> {
  const sign = crypto.subtle.sign.bind(crypto.subtle);
  let count = 0;
  vi.spyOn(crypto.subtle, "sign").mockImplementation(async (algorithm, key, data) => {
    if (typeof algorithm === "object" && algorithm.name === "RSA-RAW") count++;
    return sign(algorithm, key, data);
  });
  await run();
  vi.restoreAllMocks();
  return count;
}

describe("an issuance request names no session", () => {
  const SESSION = "ses_AAAAAAAAAAAAAAAAAAAAAAAA";
  const naming: { name: string; path?: string; headers?: Record<string, string>; extra?: Record<string, unknown> }[] = [
    { name: "an X-Session-Nonce header", headers: { "x-session-nonce": "n0nce" } },
    { name: "a Referer of the session's page", headers: { referer: `https://age.example/verify?session_id=${SESSION}&nonce=n0nce` } },
    { name: "a Referer with a path", headers: { referer: "https://age.example/verify" } },
    { name: "a query string", path: `/api/age-tokens?session_id=${SESSION}` },
    { name: "a session id in the body", extra: { session_id: SESSION } },
    { name: "a nonce in the body", extra: { nonce: "n0nce" } },
  ];
  for (const way of naming) {
    it(`${way.name}: 422 VALIDATION_FAILED before the sign-in is checked, nothing counted or signed`, async () => {
      const adult = await seedEndUser(birthdayToday(30));
      const body = { age_over: 18, token_requests: await requestsFor(1), ...way.extra };
      const before = await counters();
      const signatures = await rsaSignaturesDuring(async () => {
        expectError(
          await call("POST", way.path ?? "/api/age-tokens", { token: adult.token, headers: way.headers, body }),
          422,
          "VALIDATION_FAILED",
        );
        // A sign-in that does not verify gets the same answer: the refusal comes first.
        expectError(
          await call("POST", way.path ?? "/api/age-tokens", { headers: { authorization: "Bearer nope", ...way.headers }, body }),
          422,
          "VALIDATION_FAILED",
        );
      });
      expect(signatures).toBe(0);
      expect(await counters()).toBe(before);
    });
  }

  it("a Referer of the bare origin (names nothing) and no Referer at all are served", async () => {
    const adult = await seedEndUser(birthdayToday(30));
    const res = await call("POST", "/api/age-tokens", {
      token: adult.token,
      headers: { referer: "https://age.example/" },
      body: { age_over: 18, token_requests: await requestsFor(1) },
    });
    expect(res.status, res.text).toBe(200);
    expect(await stockTokens(adult.token, 18, 1)).toHaveLength(1);
  });
});

describe("issuance counts before it signs", () => {
  it("an account over its daily limit costs no private-key operation; one within it costs one per token", async () => {
    const limited = { ...env, AGE_TOKENS_PER_DAY: "10" } as Env;
    const adult = await seedEndUser(birthdayToday(30));
    // The day's 10 tokens.
    expect(await stockTokens(adult.token, 18, 10, {}, limited)).toHaveLength(10);
    const requests = await requestsFor(10);
    const refused = await rsaSignaturesDuring(async () => {
      expectError(await askForTokens(adult.token, { age_over: 18, token_requests: requests }, limited), 429, "RATE_LIMITED");
      expectError(await askForTokens(adult.token, { age_over: 18, token_requests: requests.slice(0, 1) }, limited), 429, "RATE_LIMITED");
    });
    expect(refused).toBe(0);
    const other = await seedEndUser(birthdayToday(30));
    const served = await rsaSignaturesDuring(async () => {
      expect((await askForTokens(other.token, { age_over: 18, token_requests: await requestsFor(3) }, limited)).status).toBe(200);
    });
    expect(served).toBe(3);
  });

  it("a malformed request is refused before anything is counted", async () => {
    const adult = await seedEndUser(birthdayToday(30));
    const before = await counters();
    expectError(
      await call("POST", "/api/age-tokens", { token: adult.token, body: { age_over: 18, token_requests: ["AAAA"] } }),
      422,
      "VALIDATION_FAILED",
    );
    expect(await counters()).toBe(before);
  });
});
