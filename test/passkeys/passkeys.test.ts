// Passkeys end to end in workerd: enrolment and approval through the real routes, with a software
// authenticator (test/helpers/authenticator.ts) producing the WebAuthn structures. Every forged or
// stale response is refused with its own message and changes nothing: no passkey stored, the counter
// as it was, the session still PENDING.
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { withinOneWindow } from "../helpers/platform-windows";
import { emailTokens, passkeyChallenges, passkeys } from "../../src/db/schema";
import { freshAddress, mailedToken } from "../helpers/accounts";
import { SoftwareAuthenticator, type Forgery } from "../helpers/authenticator";
import { call, expectError } from "../helpers/http";
import { verifyReceipt } from "../helpers/receipts";
import { SEEDED_PASSWORD, seedEndUser, seedMerchant, type SeededAccount } from "../helpers/seed";
import { birthdayToday, CALLBACK_URL, poll, storedStatus } from "../helpers/sessions";
import { dbOfAccount } from "../helpers/shards";

const base = "/api/users/me/passkeys";

async function registrationOptions(user: SeededAccount) {
  const res = await call("POST", `${base}/registration-options`, { token: user.token, body: { password: SEEDED_PASSWORD } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

async function enrol(user: SeededAccount, authenticator: SoftwareAuthenticator, forgery: Forgery = {}, name?: string) {
  const options = await registrationOptions(user);
  return call("POST", base, {
    token: user.token,
    body: { name, credential: await authenticator.register(options, forgery), password: SEEDED_PASSWORD },
  });
}

async function enrolled(user: SeededAccount) {
  const authenticator = await SoftwareAuthenticator.create();
  const res = await enrol(user, authenticator);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return authenticator;
}

/** An assertion by `authenticator` over a fresh confirmation challenge of the account. */
async function confirmation(user: SeededAccount, authenticator: SoftwareAuthenticator) {
  const res = await call("POST", `${base}/confirmation-options`, { token: user.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return authenticator.assert(res.body.data);
}

async function open(apiKey: string, body: Record<string, unknown> = {}) {
  const res = await call("POST", "/api/age-verification/session", {
    apiKey,
    body: { age_required: 18, callback_url: CALLBACK_URL, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { session_id: string; nonce: string };
}

async function approvalOptions(user: SeededAccount, session: { session_id: string; nonce: string }) {
  const res = await call("POST", `/api/age-verification/session/${session.session_id}/passkey-options`, {
    token: user.token,
    body: { nonce: session.nonce },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const answer = (user: SeededAccount, session: { session_id: string; nonce: string }, body: Record<string, unknown>) =>
  call("POST", `/api/age-verification/session/${session.session_id}/complete`, {
    token: user.token,
    body: { nonce: session.nonce, ...body },
  });

const storedPasskeys = async (userId: string) => (await dbOfAccount(userId)).select().from(passkeys).where(eq(passkeys.userId, userId));

async function setup() {
  const merchant = await seedMerchant();
  const user = await seedEndUser(birthdayToday(30));
  return { merchant, user };
}

describe("enrolment", () => {
  it("offers creation options with a single-use challenge: resident key, user verification, no attestation, RP from APP_URL", async () => {
    const { user } = await setup();
    const options = await registrationOptions(user);
    expect(options).toMatchObject({
      rp: { id: "localhost" },
      pubKeyCredParams: [{ type: "public-key", alg: -7 }],
      attestation: "none",
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
      excludeCredentials: [],
    });
    expect(options.challenge).toMatch(/^[\w-]{43}$/);
    const stored = await (await dbOfAccount(user.id)).select().from(passkeyChallenges).where(eq(passkeyChallenges.userId, user.id));
    expect(stored).toHaveLength(1);
    // Only the challenge's hash is kept.
    expect(stored[0]!.challengeHash).not.toBe(options.challenge);
    // The row keeps the day the challenge ends, nothing finer (docs/double-blind.md); the challenge
    // itself carries its five minutes (test/privacy/approval-times.test.ts holds it to them).
    expect(stored[0]!.expiresAt).toMatch(/T00:00:00\.000Z$/);
    expect(Date.parse(stored[0]!.expiresAt) - Date.now()).toBeGreaterThan(290_000);
    expect(Date.parse(stored[0]!.expiresAt) - Date.now()).toBeLessThanOrEqual(86_400_000 + 300_000);
  });

  it("enrols, lists, renames and removes a passkey; the challenge is gone after use", async () => {
    const { user } = await setup();
    const authenticator = await SoftwareAuthenticator.create();
    const res = await enrol(user, authenticator, {}, "My phone");
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const passkey = res.body.data.passkey;
    expect(passkey).toEqual({ id: expect.stringMatching(/^psk_/), name: "My phone", created_at: expect.any(String), last_used_at: null });
    const [row] = await storedPasskeys(user.id);
    expect(row).toMatchObject({ credentialId: authenticator.id, algorithm: -7, signCount: 0 });
    expect(await (await dbOfAccount(user.id)).select().from(passkeyChallenges).where(eq(passkeyChallenges.userId, user.id))).toEqual([]);

    const listed = await call("GET", base, { token: user.token });
    expect(listed.body.data.passkeys).toEqual([passkey]);
    const renamed = await call("PATCH", `${base}/${passkey.id}`, { token: user.token, body: { name: "Laptop" } });
    expect(renamed.body.data.passkey.name).toBe("Laptop");
    expect((await call("POST", `${base}/registration-options`, { token: user.token })).body.data.excludeCredentials).toEqual([
      { type: "public-key", id: authenticator.id },
    ]);
    const removed = await call("DELETE", `${base}/${passkey.id}`, {
      token: user.token,
      body: { confirmation: await confirmation(user, authenticator) },
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(await storedPasskeys(user.id)).toEqual([]);
  });

  it("a known password alone cannot add a passkey to, or remove one from, an account that has one", async () => {
    const { user } = await setup();
    const owner = await enrolled(user);
    const [ownerRow] = await storedPasskeys(user.id);
    const intruder = await SoftwareAuthenticator.create();
    const added = await enrol(user, intruder);
    expectError(added, 403, "PASSKEY_REQUIRED");
    expectError(await call("DELETE", `${base}/${ownerRow!.id}`, { token: user.token }), 403, "PASSKEY_REQUIRED");
    // A confirmation by a passkey of another account does not count either (on the same shard, so that its
    // passkey is in the database this account's is read from).
    const stranger = await seedEndUser(birthdayToday(30), { shard: user.shard });
    const strangers = await enrolled(stranger);
    const options = await call("POST", `${base}/confirmation-options`, { token: user.token });
    const forged = await call("DELETE", `${base}/${ownerRow!.id}`, {
      token: user.token,
      body: { confirmation: await strangers.assert(options.body.data) },
    });
    expectError(forged, 400, "PASSKEY_INVALID");
    expect(await storedPasskeys(user.id)).toEqual([ownerRow]);
    // Confirmed by the owner's passkey, a second one is added.
    const second = await SoftwareAuthenticator.create();
    const confirmed = await call("POST", base, {
      token: user.token,
      body: { credential: await second.register(await registrationOptions(user)), confirmation: await confirmation(user, owner) },
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(201);
    expect((await storedPasskeys(user.id)).map((row) => row.credentialId).sort()).toEqual([owner.id, second.id].sort());
  });

  it("names passkeys added without a name so that the list tells them apart, after a removal too", async () => {
    const { user } = await setup();
    const first = await enrolled(user);
    const addAnother = async (confirmer: SoftwareAuthenticator) => {
      const next = await SoftwareAuthenticator.create();
      const res = await call("POST", base, {
        token: user.token,
        body: { credential: await next.register(await registrationOptions(user)), confirmation: await confirmation(user, confirmer) },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return { authenticator: next, name: res.body.data.passkey.name as string };
    };
    const second = await addAnother(first);
    expect(second.name).toBe("Passkey 2");
    const [firstRow] = (await storedPasskeys(user.id)).filter((row) => row.credentialId === first.id);
    expect(firstRow!.name).toBe("Passkey 1");
    const removed = await call("DELETE", `${base}/${firstRow!.id}`, {
      token: user.token,
      body: { confirmation: await confirmation(user, second.authenticator) },
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    // One passkey left ("Passkey 2"): the next is not a second "Passkey 2".
    const third = await addAnother(second.authenticator);
    expect(third.name).toBe("Passkey 3");
    const names = (await call("GET", base, { token: user.token })).body.data.passkeys.map((passkey: { name: string }) => passkey.name);
    expect(names).toEqual(["Passkey 2", "Passkey 3"]);
  });

  it("answers 404 for another account's passkey and changes nothing", async () => {
    const { user } = await setup();
    // On the user's shard, so that a read which forgot the account would meet the user's rows.
    const other = await seedEndUser(birthdayToday(30), { shard: user.shard });
    await enrolled(user);
    const [row] = await storedPasskeys(user.id);
    expectError(await call("PATCH", `${base}/${row!.id}`, { token: other.token, body: { name: "Mine now" } }), 404, "NOT_FOUND");
    expectError(await call("DELETE", `${base}/${row!.id}`, { token: other.token, body: {} }), 404, "NOT_FOUND");
    expect(await storedPasskeys(user.id)).toEqual([row]);
    expect((await call("GET", base, { token: other.token })).body.data.passkeys).toEqual([]);
  });

  it.each<[string, Forgery, RegExp]>([
    ["a wrong origin", { origin: "https://evil.example" }, /another origin/],
    ["a wrong RP id", { rpId: "evil.example" }, /relying party/],
    ["a missing user-verification flag", { userVerified: false }, /did not verify the user/],
    ["a missing user-presence flag", { userPresent: false }, /presence/],
    ["a sign-in instead of a registration", { type: "webauthn.get" }, /not a registration/],
  ])("refuses a registration with %s and stores nothing", async (_label, forgery, message) => {
    const { user } = await setup();
    const res = await enrol(user, await SoftwareAuthenticator.create(), forgery);
    expectError(res, 400, "PASSKEY_INVALID");
    expect(res.body.message).toMatch(message);
    expect(await storedPasskeys(user.id)).toEqual([]);
  });

  it("refuses a replayed registration challenge and another account's challenge", async () => {
    const { user } = await setup();
    // On the same shard, so the other account's attempt reaches the challenge and spends it (an account
    // on another shard cannot reach it at all: its attempt is refused as an unknown challenge).
    const other = await seedEndUser(birthdayToday(30), { shard: user.shard });
    const options = await registrationOptions(user);
    const authenticator = await SoftwareAuthenticator.create();
    const credential = await authenticator.register(options);
    const foreign = await call("POST", base, { token: other.token, body: { credential } });
    expectError(foreign, 400, "PASSKEY_INVALID");
    expect(foreign.body.message).toMatch(/unknown or already used/);
    // The challenge was spent by that attempt: the rightful owner must ask again.
    const replay = await call("POST", base, { token: user.token, body: { credential } });
    expectError(replay, 400, "PASSKEY_INVALID");
    expect(await storedPasskeys(user.id)).toEqual([]);
    expect(await storedPasskeys(other.id)).toEqual([]);
  });

  it("refuses an expired registration challenge", async () => {
    const { user } = await setup();
    const options = await registrationOptions(user);
    await (await dbOfAccount(user.id))
      .update(passkeyChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(passkeyChallenges.userId, user.id));
    const res = await call("POST", base, {
      token: user.token,
      body: { credential: await (await SoftwareAuthenticator.create()).register(options) },
    });
    expectError(res, 400, "PASSKEY_INVALID");
    expect(res.body.message).toMatch(/expired/);
    expect(await storedPasskeys(user.id)).toEqual([]);
  });

  it("refuses a registration whose credential id does not match its authenticator data", async () => {
    const { user } = await setup();
    const options = await registrationOptions(user);
    const credential = await (await SoftwareAuthenticator.create()).register(options);
    const res = await call("POST", base, {
      token: user.token,
      body: { credential: { ...credential, id: "AAAAAAAAAAAAAAAAAAAAAA" }, password: SEEDED_PASSWORD },
    });
    expectError(res, 400, "PASSKEY_INVALID");
    expect(await storedPasskeys(user.id)).toEqual([]);
  });
});

describe("approving with a passkey", () => {
  it("approves with a fresh assertion bound to the session: holder_binding PASSKEY, counter moved, challenge gone", async () => {
    const { merchant, user } = await setup();
    const authenticator = await enrolled(user);
    const session = await open(merchant.apiKey);
    const options = await approvalOptions(user, session);
    expect(options).toMatchObject({
      rpId: "localhost",
      userVerification: "required",
      allowCredentials: [{ type: "public-key", id: authenticator.id }],
    });
    const res = await answer(user, session, { consent: true, assertion: await authenticator.assert(options) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: "APPROVED", holder_binding: "PASSKEY" });
    expect((await poll(merchant.apiKey, session.session_id)).body.data.holder_binding).toBe("PASSKEY");
    const [row] = await storedPasskeys(user.id);
    expect(row!.signCount).toBe(1);
    expect(row!.lastUsedAt).not.toBeNull();
    // Nothing links the account to the session once it is answered.
    expect(await (await dbOfAccount(user.id)).select().from(passkeyChallenges).where(eq(passkeyChallenges.userId, user.id))).toEqual([]);
  });

  it("answers 403 PASSKEY_REQUIRED to a password-only consent from an account with a passkey", async () => {
    const { merchant, user } = await setup();
    await enrolled(user);
    const session = await open(merchant.apiKey);
    expectError(await answer(user, session, { consent: true }), 403, "PASSKEY_REQUIRED");
    expect(await storedStatus(session.session_id)).toBe("PENDING");
  });

  it("lets an account with a passkey refuse without one: DENIED, holder_binding null", async () => {
    const { merchant, user } = await setup();
    await enrolled(user);
    const session = await open(merchant.apiKey);
    const res = await answer(user, session, { consent: false });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: "DENIED", holder_binding: null });
  });

  it("lets an account without a passkey approve with its sign-in: holder_binding PASSWORD (the 1.0.0 body)", async () => {
    const { merchant, user } = await setup();
    const session = await open(merchant.apiKey);
    const res = await answer(user, session, { consent: true });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: "APPROVED", holder_binding: "PASSWORD" });
  });

  it("refuses the password path of a require_passkey session, and shows the requirement to the end user", async () => {
    const { merchant, user } = await setup();
    const session = await open(merchant.apiKey, { require_passkey: true });
    const request = await call("GET", `/api/age-verification/session/${session.session_id}/request?nonce=${session.nonce}`, {
      token: user.token,
    });
    expect(request.body.data.require_passkey).toBe(true);
    expectError(await answer(user, session, { consent: true }), 403, "PASSKEY_REQUIRED");
    expect(await storedStatus(session.session_id)).toBe("PENDING");
    // Refusing stays possible, and a passkey approves.
    const authenticator = await enrolled(user);
    const res = await answer(user, session, { consent: true, assertion: await authenticator.assert(await approvalOptions(user, session)) });
    expect(res.body.data).toMatchObject({ status: "APPROVED", holder_binding: "PASSKEY" });
  });

  it("refuses a require_passkey session's password approval from an account that has a passkey, and lets it refuse", async () => {
    const { merchant, user } = await setup();
    await enrolled(user);
    const session = await open(merchant.apiKey, { require_passkey: true });
    expectError(await answer(user, session, { consent: true }), 403, "PASSKEY_REQUIRED");
    expect(await storedStatus(session.session_id)).toBe("PENDING");
    const res = await answer(user, session, { consent: false });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: "DENIED", holder_binding: null });
  });

  describe("each bad assertion is refused with a clear error and changes nothing", () => {
    async function attempt(prepare: (context: Awaited<ReturnType<typeof prepared>>) => Promise<Record<string, unknown>>, message: RegExp) {
      const context = await prepared();
      const assertion = await prepare(context);
      const before = await storedPasskeys(context.user.id);
      const res = await answer(context.user, context.session, { consent: true, assertion });
      expectError(res, 400, "PASSKEY_INVALID");
      expect(res.body.message).toMatch(message);
      expect(await storedStatus(context.session.session_id)).toBe("PENDING");
      expect(await storedPasskeys(context.user.id)).toEqual(before);
      expect((await poll(context.merchant.apiKey, context.session.session_id)).body.data).toMatchObject({
        status: "PENDING",
        holder_binding: null,
      });
    }

    async function prepared() {
      const { merchant, user } = await setup();
      const authenticator = await enrolled(user);
      const session = await open(merchant.apiKey);
      return { merchant, user, authenticator, session };
    }

    it("a wrong origin", () =>
      attempt(
        async ({ user, session, authenticator }) =>
          authenticator.assert(await approvalOptions(user, session), { origin: "https://evil.example" }),
        /another origin/,
      ));

    it("a wrong RP id", () =>
      attempt(
        async ({ user, session, authenticator }) => authenticator.assert(await approvalOptions(user, session), { rpId: "evil.example" }),
        /relying party/,
      ));

    it("a missing user-verification flag", () =>
      attempt(
        async ({ user, session, authenticator }) => authenticator.assert(await approvalOptions(user, session), { userVerified: false }),
        /did not verify the user/,
      ));

    it("a replayed challenge", async () => {
      let replayed: Record<string, unknown> = {};
      await attempt(async ({ merchant, user, authenticator }) => {
        // The assertion approves one session; sent again for another session (same account), its challenge is spent.
        const first = await open(merchant.apiKey);
        replayed = await authenticator.assert(await approvalOptions(user, first));
        expect((await answer(user, first, { consent: true, assertion: replayed })).status).toBe(200);
        return replayed;
      }, /unknown or already used/);
    });

    it("a replayed assertion on its own session, after a refused completion", async () => {
      const context = await prepared();
      const assertion = await context.authenticator.assert(await approvalOptions(context.user, context.session));
      const first = await answer(context.user, context.session, {
        consent: true,
        assertion: { ...assertion, response: { ...assertion.response, signature: assertion.response.signature.slice(0, -4) + "AAAA" } },
      });
      expectError(first, 400, "PASSKEY_INVALID");
      const again = await answer(context.user, context.session, { consent: true, assertion });
      expectError(again, 400, "PASSKEY_INVALID");
      expect(again.body.message).toMatch(/unknown or already used/);
      expect(await storedStatus(context.session.session_id)).toBe("PENDING");
    });

    it("an expired challenge", () =>
      attempt(async ({ user, session, authenticator }) => {
        const options = await approvalOptions(user, session);
        await (await dbOfAccount(user.id))
          .update(passkeyChallenges)
          .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
          .where(eq(passkeyChallenges.userId, user.id));
        return authenticator.assert(options);
      }, /expired/));

    it("another session's challenge", () =>
      attempt(async ({ merchant, user, authenticator }) => {
        const other = await open(merchant.apiKey);
        return authenticator.assert(await approvalOptions(user, other));
      }, /another request/));

    // The challenge is bound to its session by the session's nonce (docs/security-privacy.md: no session id is stored with
    // it), so this assertion passes the challenge check; the other session's nonce then opens nothing here.
    it("another session's challenge sent with that session's nonce: refused, this session untouched", async () => {
      const context = await prepared();
      const other = await open(context.merchant.apiKey);
      const assertion = await context.authenticator.assert(await approvalOptions(context.user, other));
      const res = await answer(context.user, { session_id: context.session.session_id, nonce: other.nonce }, { consent: true, assertion });
      expectError(res, 404, "NOT_FOUND");
      expect(await storedStatus(context.session.session_id)).toBe("PENDING");
      expect(await storedStatus(other.session_id)).toBe("PENDING");
    });

    it("another account's credential (on the same shard)", () =>
      attempt(async ({ user, session }) => {
        const stranger = await seedEndUser(birthdayToday(30), { shard: user.shard });
        const strangers = await enrolled(stranger);
        return strangers.assert(await approvalOptions(user, session));
      }, /not registered to your account/));

    it("a counter that went backwards", () =>
      attempt(async ({ user, session, authenticator }) => {
        await (await dbOfAccount(user.id)).update(passkeys).set({ signCount: 7 }).where(eq(passkeys.userId, user.id));
        return authenticator.assert(await approvalOptions(user, session), { counter: 5 });
      }, /counter went backwards/));

    it("a signature by another key", () =>
      attempt(async ({ user, session, authenticator }) => {
        const impostor = await SoftwareAuthenticator.create();
        const assertion = await impostor.assert(await approvalOptions(user, session));
        return { ...assertion, id: authenticator.id, rawId: authenticator.id };
      }, /signature does not verify/));
  });

  it("answers 404 for the options of an unknown session or a wrong nonce, and stores no challenge", async () => {
    const { merchant, user } = await setup();
    const session = await open(merchant.apiKey);
    const wrongNonce = await call("POST", `/api/age-verification/session/${session.session_id}/passkey-options`, {
      token: user.token,
      body: { nonce: "wrong" },
    });
    expectError(wrongNonce, 404, "NOT_FOUND");
    const unknown = await call("POST", `/api/age-verification/session/ses_${"A".repeat(24)}/passkey-options`, {
      token: user.token,
      body: { nonce: session.nonce },
    });
    expectError(unknown, 404, "NOT_FOUND");
    expect(await (await dbOfAccount(user.id)).select().from(passkeyChallenges).where(eq(passkeyChallenges.userId, user.id))).toEqual([]);
    // The right nonce on the right session is answered: the 404s above were the id's and the nonce's.
    expect((await approvalOptions(user, session)).challenge).toEqual(expect.any(String));
  });
});

describe("limits, key types and counters", () => {
  /** Passkey rows written straight to D1 (as if enrolled earlier): the cap is about how many rows exist. */
  async function storedFakePasskeys(userId: string, count: number) {
    for (let i = 0; i < count; i++) {
      await (await dbOfAccount(userId)).insert(passkeys).values({
        id: `psk_${crypto.randomUUID().replace(/-/g, "").slice(0, 24)}`,
        userId,
        credentialId: `fake-credential-${crypto.randomUUID()}`,
        publicKey: "BA",
        algorithm: -7,
        signCount: 0,
        name: `Old key ${i}`,
        createdAt: new Date(Date.now() - 1000 * (count - i)).toISOString(),
        lastUsedAt: null,
      });
    }
  }

  it("holds at most 10 passkeys: options for an 11th are 409 PASSKEY_LIMIT_REACHED, and so is an enrolment whose options came before the 10th", async () => {
    const { user } = await setup();
    const owner = await enrolled(user);
    await storedFakePasskeys(user.id, 8);
    // Nine passkeys: options are still given, then a tenth lands before this enrolment finishes.
    const options = await registrationOptions(user);
    await storedFakePasskeys(user.id, 1);
    const late = await SoftwareAuthenticator.create();
    const res = await call("POST", base, {
      token: user.token,
      body: { credential: await late.register(options), confirmation: await confirmation(user, owner) },
    });
    expectError(res, 409, "PASSKEY_LIMIT_REACHED");
    expect(await storedPasskeys(user.id)).toHaveLength(10);
    expectError(await call("POST", `${base}/registration-options`, { token: user.token }), 409, "PASSKEY_LIMIT_REACHED");
  });

  it("limits option requests to 10 a minute per account, across registration, confirmation and approval options: 429 with Retry-After", {
    timeout: 30_000,
  }, async () => {
    const { merchant, user } = await setup();
    const session = await open(merchant.apiKey);
    // The platform's limiter counts in wall-clock minutes: the thirteen calls must fall in one (the test
    // failed when a minute ended among them).
    await withinOneWindow();
    for (let i = 0; i < 10; i++) await registrationOptions(user);
    for (const res of [
      await call("POST", `${base}/registration-options`, { token: user.token }),
      await call("POST", `${base}/confirmation-options`, { token: user.token }),
      await call("POST", `/api/age-verification/session/${session.session_id}/passkey-options`, {
        token: user.token,
        body: { nonce: session.nonce },
      }),
    ]) {
      expectError(res, 429, "RATE_LIMITED");
      expect(res.headers.get("retry-after")).toBe("60");
    }
    expect(await (await dbOfAccount(user.id)).select().from(passkeyChallenges).where(eq(passkeyChallenges.userId, user.id))).toHaveLength(
      10,
    );
    // Another account is not affected.
    const other = await seedEndUser(birthdayToday(30));
    await registrationOptions(other);
  });

  it.each<[string, Forgery]>([
    ["an Ed25519 (EdDSA) key", { key: "ed25519" }],
    ["a P-384 key (ES384)", { key: "es384" }],
    ["a P-256 key labelled ES384", { key: "p256-es384-label" }],
    ["a P-256 key without an algorithm", { key: "p256-no-alg" }],
  ])("refuses to enrol %s: only ES256 is accepted", async (_label, forgery) => {
    const { user } = await setup();
    const res = await enrol(user, await SoftwareAuthenticator.create(), forgery);
    expectError(res, 400, "PASSKEY_INVALID");
    expect(res.body.message).toMatch(/Only ES256/);
    expect(await storedPasskeys(user.id)).toEqual([]);
  });

  it("refuses a registration and an approval made in a frame of another origin", async () => {
    const { merchant, user } = await setup();
    const framed: Forgery = { crossOrigin: true, topOrigin: "https://evil.example" };
    const refused = await enrol(user, await SoftwareAuthenticator.create(), framed);
    expectError(refused, 400, "PASSKEY_INVALID");
    expect(refused.body.message).toMatch(/embedded frame/);
    expect(await storedPasskeys(user.id)).toEqual([]);

    const authenticator = await enrolled(user);
    const session = await open(merchant.apiKey);
    const res = await answer(user, session, {
      consent: true,
      assertion: await authenticator.assert(await approvalOptions(user, session), framed),
    });
    expectError(res, 400, "PASSKEY_INVALID");
    expect(res.body.message).toMatch(/embedded frame/);
    expect(await storedStatus(session.session_id)).toBe("PENDING");
    // The same authenticator outside a frame approves: the refusal was the frame's.
    const approved = await answer(user, session, {
      consent: true,
      assertion: await authenticator.assert(await approvalOptions(user, session)),
    });
    expect(approved.body.data).toMatchObject({ status: "APPROVED", holder_binding: "PASSKEY" });
  });

  it("refuses an assertion whose counter did not move, and accepts authenticators that keep no counter (0 both times)", async () => {
    const { merchant, user } = await setup();
    const authenticator = await enrolled(user);
    await (await dbOfAccount(user.id)).update(passkeys).set({ signCount: 5 }).where(eq(passkeys.userId, user.id));
    const session = await open(merchant.apiKey);
    const same = await answer(user, session, {
      consent: true,
      assertion: await authenticator.assert(await approvalOptions(user, session), { counter: 5 }),
    });
    expectError(same, 400, "PASSKEY_INVALID");
    expect(same.body.message).toMatch(/counter went backwards/);
    expect((await storedPasskeys(user.id))[0]!.signCount).toBe(5);

    // A counter-less authenticator: stored 0, sends 0, every time.
    await (await dbOfAccount(user.id)).update(passkeys).set({ signCount: 0 }).where(eq(passkeys.userId, user.id));
    for (let i = 0; i < 2; i++) {
      const next = await open(merchant.apiKey);
      const res = await answer(user, next, {
        consent: true,
        assertion: await authenticator.assert(await approvalOptions(user, next), { counter: 0 }),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toMatchObject({ status: "APPROVED", holder_binding: "PASSKEY" });
    }
  });
});

describe("what a passkey approval reports, and what is left when passkeys go", () => {
  it("an under-age denial with a passkey is bound to the PASSKEY, in the poll and in a receipt that verifies", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser(birthdayToday(15));
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 204 }));
    const authenticator = await enrolled(user);
    const session = await open(merchant.apiKey);
    const res = await answer(user, session, { consent: true, assertion: await authenticator.assert(await approvalOptions(user, session)) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: "DENIED", above_age_required: false, holder_binding: "PASSKEY" });
    const { claims } = await verifyReceipt(res.body.data.receipt);
    expect(claims).toMatchObject({
      outcome: "DENIED",
      holder_binding: "PASSKEY",
      assurance: "KYC_VERIFIED",
      session_id: session.session_id,
    });
    // The callback is delivered before the test ends, so no retry of it outlives the file.
    await vi.waitFor(() => expect(spy.mock.calls.some(([input]) => String(input) === CALLBACK_URL)).toBe(true), { timeout: 10_000 });
    spy.mockRestore();
  });

  it("an approval's receipt says holder_binding PASSKEY; neither the poll nor the callback carries a credential id", async () => {
    const { merchant, user } = await setup();
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 204 }));
    const authenticator = await enrolled(user);
    const [row] = await storedPasskeys(user.id);
    const session = await open(merchant.apiKey);
    const res = await answer(user, session, { consent: true, assertion: await authenticator.assert(await approvalOptions(user, session)) });
    expect((await verifyReceipt(res.body.data.receipt)).claims).toMatchObject({ outcome: "APPROVED", holder_binding: "PASSKEY" });
    const polled = await poll(merchant.apiKey, session.session_id);
    // This session's callback: a retry of an earlier test's callback may reach the same URL meanwhile.
    const ours = ([input, init]: Parameters<typeof fetch>) =>
      String(input) === CALLBACK_URL && String(init?.body).includes(session.session_id);
    await vi.waitFor(() => expect(spy.mock.calls.some(ours)).toBe(true), { timeout: 10_000 });
    const callback = String(spy.mock.calls.find(ours)![1]!.body);
    expect(JSON.parse(callback).data.holder_binding).toBe("PASSKEY");
    for (const text of [polled.text, callback, res.text]) {
      expect(text).not.toContain(authenticator.id);
      expect(text).not.toContain(row!.id);
      expect(text).not.toContain(user.id);
    }
    spy.mockRestore();
  });

  it("once the last passkey is removed, the password approves again (holder_binding PASSWORD)", async () => {
    const { merchant, user } = await setup();
    const authenticator = await enrolled(user);
    const [row] = await storedPasskeys(user.id);
    const before = await open(merchant.apiKey);
    expectError(await answer(user, before, { consent: true }), 403, "PASSKEY_REQUIRED");
    const removed = await call("DELETE", `${base}/${row!.id}`, {
      token: user.token,
      body: { confirmation: await confirmation(user, authenticator) },
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const res = await answer(user, before, { consent: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: "APPROVED", holder_binding: "PASSWORD" });
  });

  it("deleting an account removes its passkeys and challenges and spends its email links", async () => {
    const { user } = await setup();
    await enrolled(user);
    await registrationOptions(user);
    // A reset link mailed before the deletion.
    expect((await call("POST", "/api/auth/forgot-password", { body: { email: user.email }, headers: freshAddress() })).status).toBe(202);
    const link = await mailedToken(user.email);
    expect(await storedPasskeys(user.id)).toHaveLength(1);

    const deleted = await call("DELETE", "/api/users/account", { token: user.token });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(await storedPasskeys(user.id)).toEqual([]);
    expect(await (await dbOfAccount(user.id)).select().from(passkeyChallenges).where(eq(passkeyChallenges.userId, user.id))).toEqual([]);
    expect(await (await dbOfAccount(user.id)).select().from(emailTokens).where(eq(emailTokens.userId, user.id))).toEqual([]);
    expectError(
      await call("POST", "/api/auth/reset-password", {
        body: { token: link, newPassword: "a brand new password" },
        headers: freshAddress(),
      }),
      400,
      "INVALID_TOKEN",
    );
  });
});
