// On a double-blind session, every route under /api/age-verification/session/{id} that the person's page
// calls refuses a request carrying an Authorization header, 403 DOUBLE_BLIND_REQUIRED, before anything of
// an account is read (docs/double-blind.md "The service never holds the account and the session
// together"): a sign-in that does not even verify gets the same 403, the account's counters and passkey
// challenges do not move, the session stays PENDING, and the one log line names the route and status.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { SoftwareAuthenticator } from "../helpers/authenticator";
import { call, expectError } from "../helpers/http";
import { enrolPasskeyFor } from "../helpers/passkeys";
import { seedEndUser, seedMerchant } from "../helpers/seed";
import { birthdayToday, poll } from "../helpers/sessions";
import { allShards } from "../helpers/shards";
import { stockTokens } from "./service-client";

type Opened = { session_id: string; nonce: string };
type Merchant = Awaited<ReturnType<typeof seedMerchant>>;

let merchant: Merchant;
let adult: Awaited<ReturnType<typeof seedEndUser>>;
beforeAll(async () => {
  merchant = await seedMerchant();
  adult = await seedEndUser(birthdayToday(30));
  await enrolPasskeyFor(adult);
});
afterEach(() => vi.restoreAllMocks());

async function open(doubleBlind: boolean): Promise<Opened> {
  const res = await call("POST", "/api/age-verification/session", {
    apiKey: merchant.apiKey,
    body: { age_required: 18, callback_url: "https://merchant.example/hooks/age", double_blind: doubleBlind },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data as Opened;
}

/** Every route the person's page calls on a session, as it calls them (the nonce in its header), plus the 1.0.0 places of the nonce. */
const ROUTES: { name: string; send: (s: Opened, authorization: string) => ReturnType<typeof call> }[] = [
  {
    name: "preview",
    send: (s, a) =>
      call("GET", `/api/age-verification/session/${s.session_id}/preview`, { headers: { authorization: a, "x-session-nonce": s.nonce } }),
  },
  {
    name: "request",
    send: (s, a) =>
      call("GET", `/api/age-verification/session/${s.session_id}/request`, { headers: { authorization: a, "x-session-nonce": s.nonce } }),
  },
  {
    name: "request (?nonce=)",
    send: (s, a) =>
      call("GET", `/api/age-verification/session/${s.session_id}/request?nonce=${s.nonce}`, { headers: { authorization: a } }),
  },
  {
    name: "complete",
    send: (s, a) =>
      call("POST", `/api/age-verification/session/${s.session_id}/complete`, {
        headers: { authorization: a, "x-session-nonce": s.nonce },
        body: { consent: true },
      }),
  },
  {
    name: "complete (nonce in body)",
    send: (s, a) =>
      call("POST", `/api/age-verification/session/${s.session_id}/complete`, {
        headers: { authorization: a },
        body: { nonce: s.nonce, consent: false },
      }),
  },
  {
    name: "decline",
    send: (s, a) =>
      call("POST", `/api/age-verification/session/${s.session_id}/decline`, { headers: { authorization: a, "x-session-nonce": s.nonce } }),
  },
  {
    name: "passkey-options",
    send: (s, a) =>
      call("POST", `/api/age-verification/session/${s.session_id}/passkey-options`, {
        headers: { authorization: a, "x-session-nonce": s.nonce },
        body: {},
      }),
  },
  {
    name: "passkey-options (nonce in body)",
    send: (s, a) =>
      call("POST", `/api/age-verification/session/${s.session_id}/passkey-options`, {
        headers: { authorization: a },
        body: { nonce: s.nonce },
      }),
  },
  {
    name: "digital-id/request",
    send: (s, a) =>
      call("POST", `/api/age-verification/session/${s.session_id}/digital-id/request`, {
        headers: { authorization: a, "x-session-nonce": s.nonce },
      }),
  },
  {
    name: "digital-id/response",
    send: (s, a) =>
      call("POST", `/api/age-verification/session/${s.session_id}/digital-id/response`, {
        headers: { authorization: a, "x-session-nonce": s.nonce },
        body: { protocol: "org-iso-mdoc", data: {} },
      }),
  },
];

/** What an account's activity leaves in D1: its counter rows and pending passkey challenges, on every shard. */
async function accountTraces(userId: string) {
  const counters = await allShards<Record<string, unknown>>("SELECT key, count, expires_at FROM account_counters ORDER BY key");
  const challenges = await allShards<Record<string, unknown>>("SELECT * FROM passkey_challenges WHERE user_id = ?", userId);
  return JSON.stringify({ counters, challenges });
}

describe("a double-blind session refuses every request that carries an account", () => {
  for (const route of ROUTES) {
    it(`${route.name}: 403 DOUBLE_BLIND_REQUIRED with a valid sign-in, nothing of the account read or counted, the session still PENDING`, async () => {
      const session = await open(true);
      const before = await accountTraces(adult.id);
      const lines: string[] = [];
      for (const method of ["log", "warn", "error"] as const)
        vi.spyOn(console, method).mockImplementation((line: unknown) => void lines.push(String(line)));
      expectError(await route.send(session, `Bearer ${adult.token}`), 403, "DOUBLE_BLIND_REQUIRED");
      vi.restoreAllMocks();
      expect(await accountTraces(adult.id)).toBe(before);
      expect((await poll(merchant.apiKey, session.session_id)).body.data).toMatchObject({ status: "PENDING" });
      // One line: the route pattern and the status; no session id, nonce, token or account.
      const logged = lines.join("\n");
      for (const secret of [session.session_id, session.nonce, adult.token, adult.id, adult.email]) expect(logged).not.toContain(secret);
      expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
        expect.objectContaining({ message: "request", status: 403, route: expect.stringContaining("/session/:id/") }),
      ]);
    });

    it(`${route.name}: a sign-in that does not even verify gets the same 403, not 401 (the refusal comes before the account)`, async () => {
      const session = await open(true);
      expectError(await route.send(session, "Bearer not-a-token"), 403, "DOUBLE_BLIND_REQUIRED");
      expectError(await route.send(session, "Basic dXNlcjpwYXNz"), 403, "DOUBLE_BLIND_REQUIRED");
    });
  }

  // The class: wherever the session's own nonce is carried (the X-Session-Nonce header, the 1.0.0 place,
  // or both), with or without a wrong one in the other place, a sign-in never gets past the session.
  const PLACED: {
    name: string;
    send: (s: Opened, a: string, header: string | undefined, place: string | undefined) => ReturnType<typeof call>;
  }[] = [
    {
      name: "request",
      send: (s, a, header, place) =>
        call("GET", `/api/age-verification/session/${s.session_id}/request${place === undefined ? "" : `?nonce=${place}`}`, {
          headers: { authorization: a, ...(header === undefined ? {} : { "x-session-nonce": header }) },
        }),
    },
    {
      name: "complete",
      send: (s, a, header, place) =>
        call("POST", `/api/age-verification/session/${s.session_id}/complete`, {
          headers: { authorization: a, ...(header === undefined ? {} : { "x-session-nonce": header }) },
          body: { consent: true, ...(place === undefined ? {} : { nonce: place }) },
        }),
    },
    {
      name: "passkey-options",
      send: (s, a, header, place) =>
        call("POST", `/api/age-verification/session/${s.session_id}/passkey-options`, {
          headers: { authorization: a, ...(header === undefined ? {} : { "x-session-nonce": header }) },
          body: place === undefined ? {} : { nonce: place },
        }),
    },
  ];
  const PLACINGS: { header: "right" | "wrong" | undefined; place: "right" | "wrong" | undefined }[] = [
    { header: "right", place: undefined },
    { header: undefined, place: "right" },
    { header: "right", place: "right" },
    { header: "wrong", place: "right" },
    { header: "right", place: "wrong" },
  ];
  for (const route of PLACED) {
    it(`${route.name}: the session's nonce in any place, beside a wrong one or not, is refused before the sign-in is checked, nothing of the account read`, async () => {
      const session = await open(true);
      const before = await accountTraces(adult.id);
      const value = (which: "right" | "wrong" | undefined) =>
        which === undefined ? undefined : which === "right" ? session.nonce : "wrong";
      for (const placing of PLACINGS) {
        for (const authorization of ["Bearer not-a-token", `Bearer ${adult.token}`]) {
          const res = await route.send(session, authorization, value(placing.header), value(placing.place));
          expect(`${res.status} ${res.body?.error}`, `${JSON.stringify(placing)} ${authorization.slice(0, 12)}`).toBe(
            "403 DOUBLE_BLIND_REQUIRED",
          );
        }
      }
      expect(await accountTraces(adult.id)).toBe(before);
      expect((await poll(merchant.apiKey, session.session_id)).body.data).toMatchObject({ status: "PENDING" });
    });
  }

  it("a wrong nonce is still 404 (the refusal says nothing about a session the caller cannot open)", async () => {
    const session = await open(true);
    expectError(await ROUTES[1]!.send({ ...session, nonce: "wrong" }, `Bearer ${adult.token}`), 404, "NOT_FOUND");
  });

  it("without an Authorization header the routes answer as before: the preview, and the anonymous token approval", async () => {
    const session = await open(true);
    const preview = await call("GET", `/api/age-verification/session/${session.session_id}/preview`, {
      headers: { "x-session-nonce": session.nonce },
    });
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({ double_blind: true, status: "PENDING" });
  });

  it("a session that is not double-blind still reads and answers with the account", async () => {
    const session = await open(false);
    const read = await call("GET", `/api/age-verification/session/${session.session_id}/request`, {
      token: adult.token,
      headers: { "x-session-nonce": session.nonce },
    });
    expect(read.status, read.text).toBe(200);
    expect(read.body.data).toMatchObject({ double_blind: false, meets_age_required: true });
    const options = await call("POST", `/api/age-verification/session/${session.session_id}/passkey-options`, {
      token: adult.token,
      body: { nonce: session.nonce },
    });
    expect(options.status, options.text).toBe(200);
  });
});

describe("an account with a passkey approves a double-blind session", () => {
  it("issuance asks for the passkey; the redemption, with no account, does not", async () => {
    const person = await seedEndUser(birthdayToday(40));
    const device = await SoftwareAuthenticator.create();
    await enrolPasskeyFor(person, device);
    // Without the passkey: refused, nothing issued.
    const requests = await call("POST", "/api/users/me/passkeys/confirmation-options", { token: person.token });
    expect(requests.status).toBe(200);
    const [token] = await stockTokens(person.token, 18, 1, { confirmation: await device.assert(requests.body.data) });
    const session = await open(true);
    const approved = await call("POST", `/api/age-verification/session/${session.session_id}/complete`, {
      headers: { "x-session-nonce": session.nonce },
      body: { consent: true, age_token: token },
    });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.data).toMatchObject({ status: "APPROVED", assurance: "KYC_VERIFIED", holder_binding: "ANONYMOUS_TOKEN" });
  });
});
