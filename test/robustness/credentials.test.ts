// Credential fuzzing: generated malformed, forged, expired and stale JWTs and API keys are all 401
// UNAUTHORIZED, on every route of the document that takes that credential, and change nothing.
import { env } from "cloudflare:test";
import fc from "fast-check";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { JWT_AUDIENCE, JWT_ISSUER } from "../../src/lib/jwt";
import { toBase64Url, utf8 } from "../../src/lib/encoding";
import { call } from "../helpers/http";
import { seedAccount, seedMerchant, type SeededAccount } from "../helpers/seed";
import { openSession } from "../helpers/sessions";
import { loadDocument, type Operation } from "./openapi-walk";
import { send, snapshot } from "./requests";
import { d1OfAccount } from "../helpers/shards";

const SEED = 0xc2ed;
const RUNS = 150;

const b64json = (value: unknown) => toBase64Url(utf8(JSON.stringify(value)));

async function hs256(secret: string, signingInput: string) {
  const key = await crypto.subtle.importKey("raw", utf8(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return toBase64Url(await crypto.subtle.sign("HMAC", key, utf8(signingInput)));
}

/** A JWT with any header and claims, signed with any secret (or with the signature given). */
async function forge(header: unknown, claims: unknown, secret: string, signature?: string) {
  const input = `${b64json(header)}.${b64json(claims)}`;
  return `${input}.${signature ?? (await hs256(secret, input))}`;
}

const { operations } = await loadDocument();
const bearerOps = operations.filter((op) => op.security === "bearer");
const apiKeyOps = operations.filter((op) => op.security === "apiKey");

let account: SeededAccount;
let merchant: Awaited<ReturnType<typeof seedMerchant>>;
let revokedKey: string;
let sessionId: string;
let sessionNonce: string;

beforeAll(async () => {
  account = await seedAccount({ userType: "BUSINESS" });
  // Version 3, so that tokens of versions 0-2 are stale ones this account really issued.
  await (await d1OfAccount(account.id)).prepare("UPDATE users SET token_version = 3 WHERE id = ?").bind(account.id).run();
  merchant = await seedMerchant();
  const opened = await openSession(merchant.apiKey);
  sessionId = opened.session_id;
  sessionNonce = opened.nonce;
  const second = await seedMerchant("to revoke");
  const revoked = await call("DELETE", `/api/keys/${second.keyId}`, { token: second.account.token });
  expect(revoked.status).toBe(200);
  revokedKey = second.apiKey;
});

const now = () => Math.floor(Date.now() / 1000);
const goodClaims = () => ({ sub: account.id, ver: 3, iss: JWT_ISSUER, aud: JWT_AUDIENCE, iat: now(), exp: now() + 3600 });
const HEADER = { alg: "HS256", typ: "JWT" };

type TokenRecipe = { label: string; make: () => Promise<string> };

const badToken: fc.Arbitrary<TokenRecipe> = fc.oneof(
  fc.tuple(fc.constantFrom("none", "None", "NONE", "nOnE", "", null), fc.constantFrom("", "AAAA", "sig")).map(([alg, signature]) => ({
    label: `alg ${alg}`,
    make: () => forge({ alg, typ: "JWT" }, goodClaims(), "", signature),
  })),
  fc.constantFrom("HS512", "HS384", "RS256", "ES256", "hs256", "PS256").map((alg) => ({
    label: `alg ${alg} signed with the secret`,
    make: () => forge({ alg, typ: "JWT" }, goodClaims(), env.JWT_SECRET!),
  })),
  fc.record({ kid: fc.string(), jku: fc.webUrl(), typ: fc.constantFrom("JWT", "at+jwt", "") }, { requiredKeys: [] }).map((extra) => ({
    label: "header altered after signing",
    make: async () => {
      const signed = await forge(HEADER, goodClaims(), env.JWT_SECRET!);
      const [, payload, signature] = signed.split(".");
      return `${b64json({ ...HEADER, ...extra, alg: "HS256", x: 1 })}.${payload}.${signature}`;
    },
  })),
  fc.constantFrom("exp", "iss", "aud", "sub", "ver").map((missing) => ({
    label: `signed without ${missing}`,
    make: () => {
      const claims: Record<string, unknown> = goodClaims();
      delete claims[missing];
      return forge(HEADER, claims, env.JWT_SECRET!);
    },
  })),
  fc.integer({ min: 0, max: 10 * 365 * 86400 }).map((ago) => ({
    label: "expired",
    make: () => forge(HEADER, { ...goodClaims(), iat: now() - ago - 43200, exp: now() - ago }, env.JWT_SECRET!),
  })),
  fc
    .oneof(fc.string({ minLength: 1 }), fc.constantFrom(env.JWT_SECRET! + " ", env.JWT_SECRET!.slice(0, -1), env.JWT_SECRET!.toUpperCase()))
    .map((secret) => ({
      label: "signed with another key",
      make: () => forge(HEADER, goodClaims(), secret),
    })),
  fc.oneof(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 4, max: 1000 }), fc.constantFrom(-1, 3.5, 2 ** 53)).map((ver) => ({
    label: `token version ${ver}`,
    make: () => forge(HEADER, { ...goodClaims(), ver }, env.JWT_SECRET!),
  })),
  fc
    .oneof(
      fc.record({ iss: fc.string().filter((s) => s !== JWT_ISSUER) }),
      fc.record({
        aud: fc.oneof(
          fc.string().filter((s) => s !== JWT_AUDIENCE),
          fc.constant([JWT_AUDIENCE, "x"]),
        ),
      }),
      fc.record({ sub: fc.oneof(fc.constant("usr_AAAAAAAAAAAAAAAAAAAAAAAA"), fc.integer(), fc.constant(null), fc.constant([])) }),
      fc.record({ ver: fc.oneof(fc.constant("3"), fc.constant(null)) }),
      fc.record({ exp: fc.oneof(fc.constant(String(now() + 3600)), fc.constant(null), fc.constant(Number.POSITIVE_INFINITY)) }),
    )
    .map((override) => ({
      label: `claims ${JSON.stringify(override)}`,
      make: () => forge(HEADER, { ...goodClaims(), ...override }, env.JWT_SECRET!),
    })),
  fc
    .oneof(
      fc.stringMatching(/^[A-Za-z0-9_-]{0,60}(\.[A-Za-z0-9_-]{0,60}){0,4}$/),
      fc.string({ maxLength: 80 }),
      fc.constantFrom("..", "a.b.c", "e30.e30.", "bnVsbA.bnVsbA.x", "W10.W10.W10", "x".repeat(3000)),
    )
    .map((raw) => ({ label: "structurally broken", make: async () => raw })),
  // Not "bearer ": scheme names are case-insensitive, so that is the same scheme.
  fc.constantFrom("Basic ", "Bearer  ", "Token ", "").map((scheme) => ({
    label: `scheme '${scheme}' with a valid token`,
    make: async () => `\u0000${scheme}`,
  })),
);

/** Headers carry no control characters; a recipe asking for another scheme is sent as that scheme. */
async function authorization(recipe: TokenRecipe) {
  const token = await recipe.make();
  if (token.startsWith("\u0000")) return `${token.slice(1)}${await forge(HEADER, goodClaims(), env.JWT_SECRET!)}`;
  return `Bearer ${token}`;
}

/**
 * Routes that read their body before the credential on purpose: an answer's body may carry the session's
 * nonce, which must be read before a sign-in is looked at (docs/double-blind.md), and token issuance
 * refuses a body that could name a session before the sign-in (docs/double-blind.md). They get a body
 * that passes validation, so the credential is the only fault.
 */
const bodyPassingValidation = (op: Operation): { body?: { json: unknown } } => {
  if (op.key === "POST /api/age-verification/session/{id}/complete") return { body: { json: { nonce: sessionNonce, consent: true } } };
  if (op.key === "POST /api/age-tokens") return { body: { json: { age_over: 18, token_requests: ["AAAA"] } } };
  return {};
};

const sessionParams = (op: Operation) =>
  op.path.includes("{id}") ? { id: op.path.startsWith("/api/keys") ? merchant.keyId : sessionId } : undefined;

describe("credential fuzzing", () => {
  it("a genuine token and key are accepted (the fixtures are sound)", async () => {
    const token = await forge(HEADER, goodClaims(), env.JWT_SECRET!);
    expect((await call("GET", "/api/users/me", { token })).status).toBe(200);
    expect((await call("GET", `/api/age-verification/session/${sessionId}`, { apiKey: merchant.apiKey })).status).toBe(200);
  });

  it("malformed, forged, expired and stale JWTs are 401 on every Bearer route, and change nothing", { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(badToken, fc.constantFrom(...bearerOps), async (recipe, op) => {
        const header = await authorization(recipe);
        // A value a Fetch header can carry: Latin-1 without the ASCII control characters (DEL included).
        fc.pre(/^[\u0020-\u007e\u0080-\u00ff]*$/.test(header));
        const before = await snapshot();
        const res = await send(op, { params: sessionParams(op), headers: { authorization: header }, ...bodyPassingValidation(op) }, {});
        if (res.status !== 401 || res.body?.error !== "UNAUTHORIZED")
          throw new Error(`${recipe.label} on ${op.key}: ${res.status} ${res.text.slice(0, 200)}`);
        expect(await snapshot()).toBe(before);
      }),
      { seed: SEED, numRuns: RUNS * 2 },
    );
  });

  const badKey: fc.Arbitrary<[string, () => string]> = fc.oneof(
    fc
      .constantFrom("svc_pk_", "svc_sk", "SVC_SK_", "sk_", "whsec_", "svc_sk__", "")
      .map((prefix) => [`prefix '${prefix}'`, () => prefix + merchant.apiKey.slice(7)] as [string, () => string]),
    fc.integer({ min: 0, max: 49 }).map((n) => [`truncated to ${n}`, () => merchant.apiKey.slice(0, n)] as [string, () => string]),
    fc
      .stringMatching(/^[A-Za-z0-9_-]{1,5}$/)
      .map((more) => [`extended by ${more}`, () => merchant.apiKey + more] as [string, () => string]),
    fc.integer({ min: 7, max: 49 }).map(
      (i) =>
        [
          `character ${i} changed`,
          () => {
            const key = merchant.apiKey;
            return key.slice(0, i) + (key[i] === "A" ? "B" : "A") + key.slice(i + 1);
          },
        ] as [string, () => string],
    ),
    fc.constant(["revoked", () => revokedKey] as [string, () => string]),
    fc.constant(["upper-cased", () => merchant.apiKey.toUpperCase()] as [string, () => string]),
    fc.stringMatching(/^svc_sk_[A-Za-z0-9_-]{43}$/).map((key) => ["well-shaped, never issued", () => key] as [string, () => string]),
  );

  it("wrong-prefix, truncated, altered, unknown and revoked API keys are 401 on every X-API-Key route, and change nothing", {
    timeout: 60_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(badKey, fc.constantFrom(...apiKeyOps), async ([label, make], op) => {
        const key = make();
        fc.pre(key !== merchant.apiKey);
        const before = await snapshot();
        const body = op.method === "POST" ? { json: { age_required: 18, callback_url: "https://merchant.example.com/cb" } } : undefined;
        const res = await send(op, { params: sessionParams(op), body, headers: { "x-api-key": key } }, {});
        if (res.status !== 401 || res.body?.error !== "UNAUTHORIZED")
          throw new Error(`${label} on ${op.key}: ${res.status} ${res.text.slice(0, 200)}`);
        expect(await snapshot()).toBe(before);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it("a value without an API key's shape is 401 before anything is hashed, however long", async () => {
    const shapeless = ["A".repeat(16 * 1024), `svc_sk_live_${"A".repeat(44)}`, `svc_sk_live_${"A".repeat(42)}!`, "svc_sk_live_"];
    const digest = vi.spyOn(crypto.subtle, "digest");
    try {
      for (const key of shapeless) {
        const res = await call("GET", "/api/age-verification/session/ses_AAAAAAAAAAAAAAAAAAAAAAAA", { headers: { "x-api-key": key } });
        expect(res.status, key.slice(0, 20)).toBe(401);
        expect(res.body.error).toBe("UNAUTHORIZED");
      }
      expect(digest).not.toHaveBeenCalled();
      // The same route with a key of the right shape does hash it: the spy sees the Worker's calls.
      expect(
        (
          await call("GET", "/api/age-verification/session/ses_AAAAAAAAAAAAAAAAAAAAAAAA", {
            headers: { "x-api-key": `svc_sk_live_${"A".repeat(43)}` },
          })
        ).status,
      ).toBe(401);
      expect(digest).toHaveBeenCalled();
    } finally {
      digest.mockRestore();
    }
  });
});
