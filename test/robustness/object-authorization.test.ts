// Object-level authorization: for every route of the document that takes an id, another account's
// credentials get the same 404 as an unknown id (existence is not revealed), and nothing changes.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/lib/ids";
import { createApiKey } from "../../src/domain/keys/api-keys";
import { root, seedAccount, seedEndUser, seedMerchant, type SeededAccount } from "../helpers/seed";
import { enrolPasskeyFor } from "../helpers/passkeys";
import { birthdayToday, openSession } from "../helpers/sessions";
import { loadDocument, type Operation } from "./openapi-walk";
import { type Case, type Credentials, send, snapshot } from "./requests";

const SEED = 0xa17;
const RUNS = 100;

type Merchant = Awaited<ReturnType<typeof seedMerchant>>;
type Session = { session_id: string; nonce: string };
type Party = {
  merchant: Merchant;
  sessions: Session[];
  endUser: SeededAccount;
  testKey: string;
  testSessions: Session[];
  passkeyId: string;
};

/** How the owner and the other party reach each id route: the case and credentials for one object. */
type Access = {
  id: (owner: Party) => fc.Arbitrary<{ id: string; nonce?: string }>;
  request: (
    target: { id: string; nonce?: string },
    caller: Party,
    callerObject: { nonce?: string },
  ) => { c: Case; credentials: Credentials };
};

const pick = <T>(items: T[]) => fc.constantFrom(...items);

const MATRIX: Record<string, Access> = {
  "GET /api/age-verification/session/{id}": {
    id: (owner) => pick(owner.sessions).map((s) => ({ id: s.session_id })),
    request: (target, caller) => ({ c: { params: { id: target.id } }, credentials: { apiKey: caller.merchant.apiKey } }),
  },
  // End-user side: the nonce handed out with a session is the capability; another session's nonce is not.
  "GET /api/age-verification/session/{id}/request": {
    id: (owner) => pick(owner.sessions).map((s) => ({ id: s.session_id, nonce: s.nonce })),
    request: (target, caller, own) => ({
      c: { params: { id: target.id }, query: { nonce: own.nonce! } },
      credentials: { token: caller.endUser.token },
    }),
  },
  "POST /api/age-verification/session/{id}/complete": {
    id: (owner) => pick(owner.sessions).map((s) => ({ id: s.session_id, nonce: s.nonce })),
    request: (target, caller, own) => ({
      c: { params: { id: target.id }, body: { json: { nonce: own.nonce!, consent: true } } },
      credentials: { token: caller.endUser.token },
    }),
  },
  // The first screen and "Not now" need no account: the nonce alone is the capability.
  "GET /api/age-verification/session/{id}/preview": {
    id: (owner) => pick(owner.sessions).map((s) => ({ id: s.session_id, nonce: s.nonce })),
    request: (target, _caller, own) => ({ c: { params: { id: target.id }, query: { nonce: own.nonce! } }, credentials: {} }),
  },
  "POST /api/age-verification/session/{id}/decline": {
    id: (owner) => pick(owner.sessions).map((s) => ({ id: s.session_id, nonce: s.nonce })),
    request: (target, _caller, own) => ({ c: { params: { id: target.id }, query: { nonce: own.nonce! } }, credentials: {} }),
  },
  // A digital ID from the wallet: no account, the nonce in X-Session-Nonce is the capability. The answer's
  // body has the documented shape, so the refusal is about the session, not the body.
  "POST /api/age-verification/session/{id}/digital-id/request": {
    id: (owner) => pick(owner.sessions).map((s) => ({ id: s.session_id, nonce: s.nonce })),
    request: (target, _caller, own) => ({ c: { params: { id: target.id }, headers: { "x-session-nonce": own.nonce! } }, credentials: {} }),
  },
  "POST /api/age-verification/session/{id}/digital-id/response": {
    id: (owner) => pick(owner.sessions).map((s) => ({ id: s.session_id, nonce: s.nonce })),
    request: (target, _caller, own) => ({
      c: {
        params: { id: target.id },
        headers: { "x-session-nonce": own.nonce! },
        body: { json: { protocol: "org-iso-mdoc", data: { response: "AAAA" } } },
      },
      credentials: {},
    }),
  },
  // Test mode: another account's test key, on a test session of the owner.
  "POST /api/age-verification/session/{id}/test-outcome": {
    id: (owner) => pick(owner.testSessions).map((s) => ({ id: s.session_id, nonce: s.nonce })),
    request: (target, caller) => ({
      c: { params: { id: target.id }, body: { json: { outcome: "APPROVED" } } },
      credentials: { apiKey: caller.testKey },
    }),
  },
  "POST /api/age-verification/session/{id}/passkey-options": {
    id: (owner) => pick(owner.sessions).map((s) => ({ id: s.session_id, nonce: s.nonce })),
    request: (target, caller, own) => ({
      c: { params: { id: target.id }, body: { json: { nonce: own.nonce! } } },
      credentials: { token: caller.endUser.token },
    }),
  },
  "PATCH /api/users/me/passkeys/{id}": {
    id: (owner) => fc.constant({ id: owner.passkeyId }),
    request: (target, caller) => ({
      c: { params: { id: target.id }, body: { json: { name: "Not yours" } } },
      credentials: { token: caller.endUser.token },
    }),
  },
  "DELETE /api/users/me/passkeys/{id}": {
    id: (owner) => fc.constant({ id: owner.passkeyId }),
    request: (target, caller) => ({ c: { params: { id: target.id }, body: { json: {} } }, credentials: { token: caller.endUser.token } }),
  },
  "DELETE /api/keys/{id}": {
    id: (owner) => fc.constant({ id: owner.merchant.keyId }),
    request: (target, caller) => ({ c: { params: { id: target.id } }, credentials: { token: caller.merchant.account.token } }),
  },
  "PATCH /api/keys/{id}": {
    id: (owner) => fc.constant({ id: owner.merchant.keyId }),
    request: (target, caller) => ({
      c: { params: { id: target.id }, body: { json: { allowedCallbackOrigins: null } } },
      credentials: { token: caller.merchant.account.token },
    }),
  },
  "POST /api/keys/{id}/rotate-signing-secret": {
    id: (owner) => fc.constant({ id: owner.merchant.keyId }),
    request: (target, caller) => ({
      c: { params: { id: target.id }, body: { json: {} } },
      credentials: { token: caller.merchant.account.token },
    }),
  },
  "POST /api/keys/{id}/test-callback": {
    id: (owner) => fc.constant({ id: owner.merchant.keyId }),
    request: (target, caller) => ({
      c: { params: { id: target.id }, body: { json: { url: "https://merchant.example.com/hook" } } },
      credentials: { token: caller.merchant.account.token },
    }),
  },
  // Redelivery needs a resolved session (the owner's sessions here are pending: 409, not 404).
  "POST /api/usage/sessions/{id}/callbacks/redeliver": {
    id: (owner) => pick(owner.sessions).map((s) => ({ id: s.session_id })),
    request: (target, caller) => ({ c: { params: { id: target.id } }, credentials: { token: caller.merchant.account.token } }),
  },
  "GET /api/usage/sessions/{id}/callbacks": {
    id: (owner) => pick(owner.sessions).map((s) => ({ id: s.session_id })),
    request: (target, caller) => ({ c: { params: { id: target.id } }, credentials: { token: caller.merchant.account.token } }),
  },
};

/** A merchant, its sessions and an end user; `beside`: each account on the shard of that party's, so a
 * read which forgot the account would meet the other party's rows (accounts are spread over the shards). */
async function party(beside?: Party): Promise<Party> {
  const merchant = await seedMerchant("default key", "live", beside ? { shard: beside.merchant.shard } : {});
  const sessions = [];
  for (let i = 0; i < 3; i++) sessions.push(await openSession(merchant.apiKey, 13 + i * 5));
  const testKey = (await createApiKey(root().onShard(merchant.account.shard), merchant.account.id, "test", "test")).apiKey;
  const testSessions = [await openSession(testKey), await openSession(testKey)];
  const endUser = await seedEndUser(birthdayToday(40), beside ? { shard: beside.endUser.shard } : {});
  return { merchant, sessions, endUser, testKey, testSessions, passkeyId: await enrolPasskeyFor(endUser) };
}

const { operations } = await loadDocument();
const idRoutes = operations.filter((op) => op.parameters.some((p) => p.in === "path"));
let owner: Party;
let other: Party;

beforeAll(async () => {
  owner = await party();
  other = await party(owner);
});

const opFor = (key: string) => idRoutes.find((op) => op.key === key) as Operation;

describe("object-level authorization matrix", () => {
  it("covers every route of the document that takes an id", () => {
    expect(idRoutes.map((op) => op.key).sort()).toEqual(Object.keys(MATRIX).sort());
  });

  it("another account's credentials get the unknown-id 404 on every id route, and nothing changes", { timeout: 60_000 }, async () => {
    const cases = fc
      .constantFrom(...Object.keys(MATRIX))
      .chain((key) => fc.tuple(fc.constant(key), MATRIX[key]!.id(owner), MATRIX[key]!.id(other)));
    await fc.assert(
      fc.asyncProperty(cases, async ([key, target, own]) => {
        const op = opFor(key);
        const access = MATRIX[key]!;
        const before = await snapshot();
        const foreign = access.request(target, other, own);
        const res = await send(op, foreign.c, foreign.credentials);
        expect(res.status, `${key}: ${res.text}`).toBe(404);
        expect(res.body).toMatchObject({ success: false, error: "NOT_FOUND", errors: [] });
        expect(await snapshot(), `${key} changed the database`).toBe(before);
        // The same answer as for an id that does not exist: nothing tells the caller the object is there.
        const unknown = access.request(
          { ...target, id: newId(target.id.startsWith("key_") ? "key" : target.id.startsWith("psk_") ? "psk" : "ses") },
          other,
          own,
        );
        const unknownRes = await send(op, unknown.c, unknown.credentials);
        expect({ status: unknownRes.status, body: unknownRes.body }).toEqual({ status: res.status, body: res.body });
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it("the owner reaches the same objects (the 404s above are not a broken fixture)", async () => {
    for (const key of Object.keys(MATRIX).filter(
      (k) =>
        !k.startsWith("DELETE") &&
        !k.includes("complete") &&
        !k.includes("decline") &&
        !k.includes("digital-id/response") &&
        !k.includes("test-outcome") &&
        !k.includes("redeliver") &&
        !k.includes("/api/keys/"),
    )) {
      const access = MATRIX[key]!;
      const own = { nonce: owner.sessions[0]!.nonce };
      const id = key.includes("/passkeys/") ? owner.passkeyId : owner.sessions[0]!.session_id;
      const mine = access.request({ id, nonce: own.nonce }, owner, own);
      const res = await send(opFor(key), mine.c, mine.credentials);
      expect(res.status, `${key}: ${res.text}`).toBe(200);
    }
    // Test mode: the owner's test key answers the owner's test session.
    const testOutcome = "POST /api/age-verification/session/{id}/test-outcome";
    const answered = MATRIX[testOutcome]!.request({ id: owner.testSessions[0]!.session_id }, owner, {});
    expect((await send(opFor(testOutcome), answered.c, answered.credentials)).status).toBe(200);
    // The key is still active: it authenticates, and its owner can revoke it.
    const poll = await send(
      opFor("GET /api/age-verification/session/{id}"),
      { params: { id: owner.sessions[0]!.session_id } },
      { apiKey: owner.merchant.apiKey },
    );
    expect(poll.status).toBe(200);
    expect(poll.body.data.status).toBe("PENDING");
    const revoke = await send(
      opFor("DELETE /api/keys/{id}"),
      { params: { id: owner.merchant.keyId } },
      { token: owner.merchant.account.token },
    );
    expect(revoke.status).toBe(200);
  });

  it("a personal account is refused the merchant id routes before any lookup", async () => {
    const personal = await seedAccount({ userType: "PERSONAL" });
    const res = await send(opFor("DELETE /api/keys/{id}"), { params: { id: owner.merchant.keyId } }, { token: personal.token });
    expect(res.status).toBe(403);
  });
});
