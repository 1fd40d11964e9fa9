// Generated valid requests on every route of the OpenAPI document: each answer, success or refusal,
// validates against what the document says for that status (Ajv on the served document, so a drift
// between a handler and its documented schema fails here). Each route must reach its success status.
import { env } from "cloudflare:test";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiKey } from "../../src/domain/keys/api-keys";
import { issueEmailToken } from "../../src/domain/accounts/email-links";
import { hashPassword } from "../../src/lib/password";
import { sandboxCheckId } from "../../src/providers/sandbox";
import { root, seedAccount, seedEndUser } from "../helpers/seed";
import { SoftwareAuthenticator } from "../helpers/authenticator";
import { enrolPasskeyFor } from "../helpers/passkeys";
import { hintsFor } from "./hints";
import {
  caseCounts,
  conformanceProblem,
  countCase,
  expectEveryRouteExercised,
  loadDocument,
  printCaseCounts,
  type Operation,
} from "./openapi-walk";
import { type Case, type Credentials, request, send } from "./requests";
import { validValue } from "./schema-arbitraries";
import { MDL, answer, issueMdoc } from "../wallet";
import { signerUnderTestRoot } from "../digital-id/wallet-setup";
import { b64url } from "../age-tokens/rfc-client";
import { directoryKey, tokenRequests } from "../age-tokens/service-client";
import { d1OfAccount } from "../helpers/shards";

const SEED = 0x7a11d;
const RUNS = 20;
const PASSWORD = "correct horse battery";

const { operations } = await loadDocument();
let passwordHash: string;

beforeAll(async () => {
  // Hashed once: PBKDF2 at 100,000 iterations per generated account would dominate the suite's time.
  passwordHash = await hashPassword(PASSWORD, env.PASSWORD_PEPPER!);
  // Callbacks of sessions resolved here go to the merchant's URL; the receiver accepts them.
  vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 204 }));
});

afterAll(() => {
  printCaseCounts("valid-request cases per route");
  vi.restoreAllMocks();
});

type State = {
  userType: "PERSONAL" | "BUSINESS";
  emailVerified: boolean;
  kyc: "none" | "applicant" | "verified" | "rejected";
  useFixtures: boolean;
};

const mostly = <T>(usual: T, rare: T) =>
  fc.oneof({ weight: 3, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: fc.constant(rare) });

// Biased to the usual case (a verified business account), so that every route's success path is reached
// in a few runs while the 403s and 409s of the other states still come up.
const state: fc.Arbitrary<State> = fc.record({
  userType: mostly<State["userType"]>("BUSINESS", "PERSONAL"),
  emailVerified: mostly(true, false),
  // "rejected": a refused sandbox check, the one state in which PUT /api/kyc/applicant succeeds.
  kyc: fc.constantFrom("none", "applicant", "verified", "rejected"),
  // Mostly the real token, id or nonce; sometimes the generated one, which the route must refuse as documented.
  useFixtures: mostly(true, false),
});

/** A fresh account in the generated state, with what the route's success path needs. */
async function prepare(op: Operation, s: State) {
  const account = await seedAccount({ userType: s.userType, emailVerified: s.emailVerified });
  await (await d1OfAccount(account.id)).prepare("UPDATE users SET password_hash = ? WHERE id = ?").bind(passwordHash, account.id).run();
  const credentials: Credentials = { token: account.token };
  let applicantId: string | undefined;
  if (s.kyc !== "none") {
    const created = await request("POST", "/api/kyc/create-applicant", {
      token: account.token,
      body: { firstName: "Ada", lastName: "Lovelace", dob: "1990-04-01" },
    });
    applicantId = created.body.data.applicantId;
    if (s.kyc === "verified") await request("POST", "/api/kyc/sandbox/complete", { token: account.token, body: {} });
    if (s.kyc === "rejected") await request("POST", "/api/kyc/sandbox/complete", { token: account.token, body: { result: "consider" } });
  }
  const fixtures: { params: Record<string, string>; body: Record<string, unknown>; query: Record<string, string> } = {
    params: {},
    body: {},
    query: {},
  };
  const needsMerchant = op.security === "apiKey" || op.path.includes("{id}") || op.path.startsWith("/api/usage");
  if (needsMerchant) {
    // The sessions belong to this account's key, so the merchant-side id routes find them.
    // The test-outcome route answers only test sessions, opened with a test key.
    const key = await createApiKey(
      root().onShard(account.shard),
      account.id,
      "generated",
      op.key.endsWith("/test-outcome") ? "test" : "live",
    );
    credentials.apiKey = key.apiKey;
    const opened = await request("POST", "/api/age-verification/session", {
      apiKey: key.apiKey,
      body: { age_required: 18, callback_url: "https://merchant.example.com/cb" },
    });
    const session = opened.body.data as { session_id: string; nonce: string };
    fixtures.params.id = op.path.startsWith("/api/keys") ? key.key.id : session.session_id;
    fixtures.query = { nonce: session.nonce, key_id: key.key.id };
    fixtures.body = { nonce: session.nonce };
  }
  switch (op.key) {
    case "POST /api/auth/login":
      fixtures.body = { email: account.email, password: PASSWORD };
      break;
    case "POST /api/auth/verify-email":
      fixtures.body = { token: await issueEmailToken(root().onShard(account.shard), account.id, "verify") };
      break;
    case "POST /api/auth/reset-password":
      fixtures.body = { token: await issueEmailToken(root().onShard(account.shard), account.id, "reset") };
      break;
    case "POST /api/auth/confirm-email-change":
      fixtures.body = {
        token: await issueEmailToken(
          root().onShard(account.shard),
          account.id,
          "change_email",
          `changed.${account.id.slice(4).toLowerCase()}@example.test`,
        ),
      };
      break;
    case "POST /api/users/change-password":
      fixtures.body = { currentPassword: PASSWORD };
      break;
    case "POST /api/users/change-email":
      fixtures.body = { password: PASSWORD };
      break;
    case "GET /api/dev/outbox":
      fixtures.query = { to: account.email };
      break;
    case "POST /api/users/me/passkeys/registration-options":
      fixtures.body = { password: PASSWORD };
      break;
    case "POST /api/users/me/passkeys": {
      const options = await request("POST", "/api/users/me/passkeys/registration-options", {
        token: account.token,
        body: { password: PASSWORD },
      });
      if (options.status === 200)
        fixtures.body = { credential: await (await SoftwareAuthenticator.create()).register(options.body.data), password: PASSWORD };
      break;
    }
    case "POST /api/users/me/passkeys/confirmation-options":
      await enrolPasskeyFor(account);
      break;
    case "PATCH /api/users/me/passkeys/{id}":
      fixtures.params.id = await enrolPasskeyFor(account);
      break;
    case "DELETE /api/users/me/passkeys/{id}": {
      const authenticator = await SoftwareAuthenticator.create();
      fixtures.params.id = await enrolPasskeyFor(account, authenticator);
      const options = await request("POST", "/api/users/me/passkeys/confirmation-options", { token: account.token });
      fixtures.body = { confirmation: await authenticator.assert(options.body.data) };
      break;
    }
    case "POST /api/usage/sessions/{id}/callbacks/redeliver": {
      // A resolved session has a callback event to send again.
      const adult = await seedEndUser("1980-01-01");
      await request("POST", `/api/age-verification/session/${fixtures.params.id}/complete`, {
        token: adult.token,
        body: { nonce: fixtures.body.nonce, consent: true },
      });
      break;
    }
    case "POST /api/age-verification/session/{id}/digital-id/response": {
      // A wallet's answer to the session's request, for the origin of APP_URL: the way to a 200.
      const asked = await request("POST", `/api/age-verification/session/${fixtures.params.id}/digital-id/request`, {
        headers: { "x-session-nonce": String(fixtures.body.nonce) },
      });
      const credential = await issueMdoc({ kind: MDL, signer: await signerUnderTestRoot(), ages: { 18: true } });
      fixtures.body = await answer(asked.body.data.requests, credential, { origin: new URL(env.APP_URL).origin });
      break;
    }
    case "POST /api/age-tokens": {
      // A TokenRequest built by the RFC client for the 18 key: a verified adult's call succeeds.
      const [pending] = await tokenRequests(await directoryKey(18), 1);
      fixtures.body = { age_over: 18, token_requests: [b64url(pending!.tokenRequest)] };
      break;
    }
    case "POST /api/attestations/authorizations":
      // A wallet's authorization request as the consent page passes it on (S256, an https redirect_uri).
      fixtures.body = {
        response_type: "code",
        scope: "proof_of_age",
        client_id: "wallet",
        redirect_uri: "https://wallet.example.org/cb",
        code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
        code_challenge_method: "S256",
      };
      break;
    case "POST /api/webhooks/provider":
      if (applicantId)
        fixtures.body = {
          payload: { resource_type: "check", action: "check.completed", object: { id: sandboxCheckId(applicantId, "clear") } },
        };
      break;
  }
  return { credentials, fixtures };
}

const stringify = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** Schema-valid inputs for the operation; fixture values replace generated ones when the state says so. */
function inputs(op: Operation) {
  const hints = hintsFor(op.key);
  const query = fc.record(
    Object.fromEntries(
      op.parameters.filter((p) => p.in === "query").map((p) => [p.name, validValue(p.schema, hints, p.name).map(stringify)]),
    ),
    { requiredKeys: op.parameters.filter((p) => p.in === "query" && p.required).map((p) => p.name) },
  );
  const body = op.body ? validValue(op.body, hints) : fc.constant(undefined);
  const params = fc.record(
    Object.fromEntries(
      op.parameters.filter((p) => p.in === "path").map((p) => [p.name, validValue(p.schema, hints, p.name).map(stringify)]),
    ),
  );
  return fc.record({ query, body, params });
}

const successes = new Map<string, number>();

describe("generated valid requests answer as the document says", () => {
  for (const op of operations) {
    it(`${op.key}: every answer validates against the document`, { timeout: 60_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(state, inputs(op), async (s, generated) => {
          countCase(op.key);
          const { credentials, fixtures } = await prepare(op, s);
          const take = <T extends object>(value: T, fixture: Partial<T>) => (s.useFixtures ? { ...value, ...fixture } : value);
          const c: Case = {
            params: take(generated.params as Record<string, string>, fixtures.params),
            query: take(generated.query as Record<string, string>, pickKnown(generated.query, fixtures.query, op, "query")),
            body: op.body
              ? {
                  json:
                    typeof generated.body === "object" && generated.body ? take(generated.body as object, fixtures.body) : generated.body,
                }
              : undefined,
            // The nonce-gated routes read it from X-Session-Nonce (some only there).
            headers:
              s.useFixtures && fixtures.query.nonce && op.parameters.some((p) => p.in === "header" && p.name === "x-session-nonce")
                ? { "x-session-nonce": fixtures.query.nonce }
                : undefined,
          };
          const res = await send(op, c, credentials);
          if (res.status >= 500) throw new Error(`${op.key}: ${res.status} ${res.text.slice(0, 300)}`);
          // Hidden by default (docs/security-privacy.md): no JSON answer, success or refusal, may be kept by a cache.
          if (/json/.test(res.headers.get("content-type") ?? "") && res.headers.get("cache-control") !== "no-store") {
            throw new Error(`${op.key}: ${res.status} without Cache-Control: no-store`);
          }
          const problem = await conformanceProblem(op, res);
          if (problem) throw new Error(problem);
          if (res.status < 300) successes.set(op.key, (successes.get(op.key) ?? 0) + 1);
        }),
        { seed: SEED, numRuns: RUNS },
      );
      expect(caseCounts.get(op.key)).toBeGreaterThanOrEqual(RUNS);
      // The success schema was exercised, not only the refusals.
      expect(successes.get(op.key) ?? 0, `${op.key} never succeeded`).toBeGreaterThan(0);
    });
  }

  it("exercised every route the app serves, each with the planned number of cases", () => {
    expectEveryRouteExercised(operations, RUNS);
  });
});

/** Only the fixture query values the route documents (a key_id filter where there is one, the nonce where asked). */
function pickKnown(_generated: unknown, fixture: Record<string, string>, op: Operation, where: "query") {
  const names = new Set(op.parameters.filter((p) => p.in === where).map((p) => p.name));
  return Object.fromEntries(Object.entries(fixture).filter(([name]) => names.has(name)));
}
