// The bench's floor: per route, exactly the storage calls the service makes, and nothing else: no
// framework, no middleware, no validation, no hashing, no logging. Whatever the service measures above
// this Worker on the same machine is its own fixed cost (docs/performance.md).
//   health: one D1 read.
//   poll:   one D1 read (the key row, joined to its account) + one Durable Object call that reads its state.
//   open:   one D1 read (the key), then one Durable Object call that makes the service's one D1 batch (this
//           minute's opens counter, the session log row, the account's PENDING sessions counted:
//           src/session/session-mirror.ts), then stores its state and its alarm (call for call, statement
//           for statement).
//   complete: one D1 batch (the account with its KYC record, and the two completion counters) + one Durable Object call that stores state and
//           outbox, writes the D1 batch (log update + callback event), enqueues the callback's safety-net copy, sets its alarm,
//           then, after the resolution is durable, makes the callback's first attempt as the service's object does
//           (src/callbacks/first-attempt.ts): one D1 batch that claims the attempt and reads the key's secret, the POST to
//           the callback URL, one D1 batch that records its outcome. The issue's physical floor for telling the merchant
//           is that one request after the state is durable; its two storage calls are the service's, call for call.
//   the callback's safety-net copy, 90 s later: one D1 batch (the service's four statements) that finds attempt 1
//           answered, then dropped.
//   age tokens (the double-blind flow, test/bench/double-blind.ts): issuance is one D1 read (the account with its
//           KYC record and passkeys), one D1 upsert (the day's token counter) and one RSA-RAW signature per
//           token with the development 18 key; redemption is one RSA-PSS verification, then one Durable Object
//           call that inserts the spent-token row and completes as above.
//   attestations (the credential request, test/bench/attestations.ts): one D1 read (the access token's grant), the
//           proofs checked one by one (each one's header and payload decoded, its jwk imported, its ES256
//           signature verified), one D1 delete per distinct nonce and one for the token (each DELETE … RETURNING),
//           then per attestation 36 random bytes, one SHA-256 and one ES256 signature with the development
//           document signer's key, over bytes of the service's MSO size holding the device key (the service's
//           CBOR encoding is its own code: not here). POST /floor/attestation-grants makes the grant rows it finds.
// The key is looked up by the header's text as its hash (the floor does no other crypto); POST /floor/seed makes
// the one key and account that lookups find, so every read returns a row as the service's do. Grants alike:
// a grant's row is keyed by its secret's text, where the service keys it by an HMAC.
import { DurableObject } from "cloudflare:workers";
import devTokenKeys from "../../fixtures/dev-age-token-keys.json";
import devAttestationSigner from "../../fixtures/dev-attestation-signer.json";

type Env = { DB: D1Database; SESSIONS: DurableObjectNamespace<FloorSession>; CALLBACKS: Queue };
type State = {
  id: string;
  accountId: string;
  keyId: string;
  callbackUrl: string;
  status: string;
  expiresAt: string;
  createdAt: string;
  resolvedAt: string | null;
};

const FLOOR_KEY = "floor-key";
const FLOOR_USER = "usr_floor";
const SESSION_PATH = "/api/age-verification/session";
const TTL_MS = 30 * 60 * 1000;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

export class FloorSession extends DurableObject<Env> {
  async open(state: State): Promise<void> {
    await this.ctx.blockConcurrencyWhile(async () => {
      if (await this.ctx.storage.get("state")) throw new Error("session already open");
      const minuteEnd = (Math.floor(Date.parse(state.createdAt) / 60_000) + 1) * 60_000;
      await this.env.DB.batch([
        this.env.DB.prepare(
          "insert into account_counters (key, count, expires_at) values (?, 1, ?) on conflict (key) do update set count = count + 1 returning count",
        ).bind(`opens:${state.accountId}:${minuteEnd}`, new Date(minuteEnd).toISOString()),
        this.env.DB.prepare(
          "insert into verification_sessions (id, account_id, key_id, status, age_required, above_age_required, receipt_id, created_at, expires_at, resolved_at) values (?, ?, ?, 'PENDING', 18, 0, null, ?, ?, null)",
        ).bind(state.id, state.accountId, state.keyId, state.createdAt, state.expiresAt),
        this.env.DB.prepare("select count(*) as pending from verification_sessions where account_id = ? and status = 'PENDING'").bind(
          state.accountId,
        ),
      ]);
      await this.ctx.storage.put("state", state);
      await this.ctx.storage.get("outbox");
      await this.ctx.storage.setAlarm(Date.parse(state.expiresAt));
    });
  }

  async poll(): Promise<State | undefined> {
    return this.ctx.storage.get<State>("state");
  }

  async complete(spentNonceHash?: string): Promise<State | undefined> {
    let next: State | undefined;
    await this.ctx.blockConcurrencyWhile(async () => {
      const current = await this.ctx.storage.get<State>("state");
      if (current?.status !== "PENDING") return;
      // A redemption: the service's spent-token row, inserted inside the section, before the approval.
      if (spentNonceHash !== undefined) {
        const inserted = await this.env.DB.prepare(
          "insert into spent_age_tokens (nonce_hash, token_key_id) values (?, 'floor') on conflict do nothing returning nonce_hash",
        )
          .bind(spentNonceHash)
          .all();
        if (inserted.results.length === 0) return;
      }
      const at = new Date().toISOString();
      next = { ...current, status: "APPROVED", resolvedAt: at };
      const eventId = crypto.randomUUID();
      const message = { type: "age_verification.completed", sessionId: current.id, eventId, at };
      await this.ctx.storage.put<unknown>({ state: next, outbox: { message } });
      await this.ctx.storage.get("outbox");
      await this.env.DB.batch([
        this.env.DB.prepare(
          "update verification_sessions set status = 'APPROVED', above_age_required = 1, resolved_at = ? where id = ?",
        ).bind(at, current.id),
        this.env.DB.prepare(
          "insert into callback_events (id, session_id, type, state, created_at, updated_at) values (?, ?, ?, 'pending', ?, ?) on conflict do nothing",
        ).bind(eventId, current.id, message.type, at, at),
      ]);
      await this.env.CALLBACKS.send(message, { delaySeconds: 90 });
      await this.ctx.storage.delete("outbox");
      await this.ctx.storage.get("outbox");
      await this.ctx.storage.setAlarm(Date.now() + TTL_MS);
      this.ctx.waitUntil(this.firstAttempt(current, eventId, message));
    });
    return next;
  }

  /** The service's first callback attempt, storage call for storage call: claim and read, send, record. */
  private async firstAttempt(state: State, eventId: string, message: unknown): Promise<void> {
    const at = new Date().toISOString();
    await this.env.DB.batch([
      this.env.DB.prepare(
        "insert into callback_attempts (event_id, attempt, at, duration_ms, error) values (?, 1, ?, 0, 'in_progress') on conflict do nothing",
      ).bind(eventId, at),
      this.env.DB.prepare(
        "select e.state, k.signing_secret_enc from callback_events e left join api_keys k on k.id = ? where e.id = ?",
      ).bind(state.keyId, eventId),
    ]);
    const started = Date.now();
    const response = await fetch(state.callbackUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(message),
    }).catch(() => null);
    await response?.arrayBuffer();
    await this.env.DB.batch([
      this.env.DB.prepare(
        "update callback_attempts set duration_ms = ?, status_code = ?, error = null where event_id = ? and attempt = 1",
      ).bind(Date.now() - started, response?.status ?? null, eventId),
      this.env.DB.prepare("update callback_events set state = 'delivered', updated_at = ? where id = ? and state = 'pending'").bind(
        at,
        eventId,
      ),
    ]);
  }

  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
  }
}

const stub = (env: Env, id: string) => env.SESSIONS.get(env.SESSIONS.idFromName(id));
const readKey = (env: Env, request: Request) =>
  env.DB.prepare(
    "select k.id, k.user_id, k.last_used_at, u.company_name from api_keys k join users u on u.id = k.user_id where k.key_hash = ? and k.revoked_at is null limit 1",
  )
    .bind(request.headers.get("x-api-key") ?? "")
    .first<{ id: string; user_id: string }>();

async function seed(env: Env): Promise<Response> {
  const now = new Date().toISOString();
  await env.DB.batch([
    env.DB.prepare(
      "insert or ignore into users (id, email, password_hash, company_name, user_type, email_verified, created_at, updated_at) values (?, 'floor@example.com', 'x', 'Floor Ltd', 'BUSINESS', 1, ?, ?)",
    ).bind(FLOOR_USER, now, now),
    env.DB.prepare(
      "insert or ignore into api_keys (id, user_id, name, prefix, key_hash, signing_secret_enc, created_at) values ('key_floor', ?, 'floor', 'floor', ?, 'x', ?)",
    ).bind(FLOOR_USER, FLOOR_KEY, now),
    env.DB.prepare(
      "insert or ignore into kyc_records (user_id, applicant_id, status, verified_dob, created_at, updated_at) values (?, 'app_floor', 'VERIFIED', '1990-01-01', ?, ?)",
    ).bind(FLOOR_USER, now, now),
  ]);
  return json(201, { apiKey: FLOOR_KEY });
}

// The development 18 key, imported once per isolate as the service's are (src/domain/age-tokens/deployment-keys.ts).
let tokenKey: Promise<{ sign: CryptoKey; verify: CryptoKey }> | undefined;
function floorTokenKey() {
  tokenKey ??= (async () => {
    const entry = (JSON.parse(devTokenKeys.value) as { age_over: number; current: string }[]).find((k) => k.age_over === 18)!;
    const pkcs8 = Uint8Array.from(atob(entry.current), (c) => c.charCodeAt(0));
    const extractable = await crypto.subtle.importKey("pkcs8", pkcs8, { name: "RSA-PSS", hash: "SHA-384" }, true, ["sign"]);
    const jwk = (await crypto.subtle.exportKey("jwk", extractable)) as JsonWebKey;
    return {
      sign: await crypto.subtle.importKey("pkcs8", pkcs8, { name: "RSA-RAW", hash: "SHA-384" }, false, ["sign"]),
      verify: await crypto.subtle.importKey("jwk", { kty: "RSA", n: jwk.n, e: jwk.e }, { name: "RSA-PSS", hash: "SHA-384" }, false, [
        "verify",
      ]),
    };
  })();
  return tokenKey;
}
const fromB64url = (text: string) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
const toB64url = (bytes: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

/** Issuance: the account read, the day's token counter, one RSA-RAW signature per TokenRequest (its blinded message). */
async function issue(env: Env, request: Request): Promise<Response> {
  const { token_requests: requests } = await request.json<{ token_requests: string[] }>();
  const read = await env.DB.prepare(
    "select u.id, u.token_version, k.verified_dob, exists (select 1 from passkeys where passkeys.user_id = u.id) as has_passkey from users u left join kyc_records k on k.user_id = u.id where u.id = ?",
  )
    .bind(FLOOR_USER)
    .first();
  if (!read) return json(401, { success: false });
  const end = (Math.floor(Date.now() / 86_400_000) + 1) * 86_400;
  await env.DB.prepare(
    "insert into account_counters (key, count, expires_at) values (?, ?, ?) on conflict (key) do update set count = count + ? returning count",
  )
    .bind(`tokens:${end}`, requests.length, new Date(end * 1000).toISOString(), requests.length)
    .all();
  const key = await floorTokenKey();
  const signatures = await Promise.all(requests.map((r) => crypto.subtle.sign({ name: "RSA-RAW" }, key.sign, fromB64url(r).slice(3))));
  return json(200, { success: true, data: { token_responses: signatures.map(toB64url) } });
}

/** Redemption: the token's RSA-PSS verification, then the session's object spends it and completes. */
async function redeem(env: Env, sessionId: string, ageToken: string): Promise<Response> {
  const token = fromB64url(ageToken);
  const key = await floorTokenKey();
  // Token: type (2), nonce (32), challenge digest (32), key id (32), then the 256-byte authenticator.
  if (!(await crypto.subtle.verify({ name: "RSA-PSS", saltLength: 48 }, key.verify, token.slice(98), token.slice(0, 98))))
    return json(422, { success: false });
  const nonceHash = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", token.slice(2, 34))), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");
  const state = await stub(env, sessionId).complete(nonceHash);
  return state ? json(200, { success: true, data: state }) : json(409, { success: false });
}

/** `count` live access tokens and as many nonces, keyed by their text; answers them in pairs. */
async function seedAttestationGrants(env: Env, request: Request): Promise<Response> {
  const { count } = await request.json<{ count: number }>();
  const expiresAt = new Date(Date.now() + 300_000).toISOString();
  const grants = Array.from({ length: count }, () => ({ accessToken: crypto.randomUUID(), nonce: crypto.randomUUID() }));
  const insert = (secret: string, kind: string) =>
    env.DB.prepare(
      "insert into attestation_grants (key_hash, kind, tx_code_hash, code_challenge, redirect_uri, expires_at) values (?, ?, null, null, null, ?)",
    ).bind(secret, kind, expiresAt);
  await env.DB.batch(grants.flatMap((g) => [insert(g.accessToken, "token"), insert(g.nonce, "nonce")]));
  return json(201, { grants });
}

// The development document signer's key, imported once per isolate as the service's is (src/domain/attestations/signer.ts).
let attestationKey: Promise<CryptoKey> | undefined;
function floorAttestationKey() {
  attestationKey ??= crypto.subtle.importKey(
    "jwk",
    JSON.parse(devAttestationSigner.signingKey) as JsonWebKey,
    { name: "ECDSA", namedCurve: "P-256" },
    false,
    ["sign"],
  );
  return attestationKey;
}
const decodeJson = (segment: string) => JSON.parse(new TextDecoder().decode(fromB64url(segment))) as Record<string, unknown>;
/** The service's signed MSO (its Sig_structure) is about this long for one age_over_18 element. */
const SIGNED_BYTES = 300;

/** The credential request: the token's grant read, every proof verified, the nonces and the token spent, one signature per attestation. */
async function issueAttestations(env: Env, request: Request): Promise<Response> {
  const token = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
  const now = new Date().toISOString();
  const live = await env.DB.prepare("select kind from attestation_grants where key_hash = ? and kind = 'token' and expires_at > ?")
    .bind(token, now)
    .first();
  if (!live) return json(401, { error: "invalid_token" });
  const body = await request.json<{ proofs: { jwt: string[] } }>();
  const proofs: { x: Uint8Array; y: Uint8Array; nonce: string }[] = [];
  for (const jwt of body.proofs.jwt) {
    const [header, payload, signature] = jwt.split(".") as [string, string, string];
    const jwk = decodeJson(header).jwk as JsonWebKey;
    const key = await crypto.subtle.importKey(
      "jwk",
      { kty: "EC", crv: "P-256", x: jwk.x, y: jwk.y },
      { name: "ECDSA", namedCurve: "P-256" },
      false,
      ["verify"],
    );
    if (
      !(await crypto.subtle.verify(
        { name: "ECDSA", hash: "SHA-256" },
        key,
        fromB64url(signature),
        new TextEncoder().encode(`${header}.${payload}`),
      ))
    )
      return json(400, { error: "invalid_proof" });
    proofs.push({ x: fromB64url(jwk.x!), y: fromB64url(jwk.y!), nonce: String(decodeJson(payload).nonce) });
  }
  const spend = (secret: string, kind: string) =>
    env.DB.prepare("delete from attestation_grants where key_hash = ? and kind = ? and expires_at > ? returning *")
      .bind(secret, kind, now)
      .first();
  for (const nonce of new Set(proofs.map((p) => p.nonce))) if (!(await spend(nonce, "nonce"))) return json(400, { error: "invalid_nonce" });
  if (!(await spend(token, "token"))) return json(401, { error: "invalid_token" });
  const signingKey = await floorAttestationKey();
  const credentials = await Promise.all(
    proofs.map(async ({ x, y }) => {
      const item = crypto.getRandomValues(new Uint8Array(36));
      const signed = new Uint8Array(SIGNED_BYTES);
      signed.set(new Uint8Array(await crypto.subtle.digest("SHA-256", item)), 0);
      signed.set(x, 32);
      signed.set(y, 64);
      const signature = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, signingKey, signed);
      return { credential: `${toB64url(item.buffer)}.${toB64url(signed.buffer)}.${toB64url(signature)}` };
    }),
  );
  return json(200, { credentials });
}

async function handle(request: Request, env: Env): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (request.method === "GET" && pathname === "/api/health") {
    await env.DB.prepare("SELECT 1").first();
    return json(200, { success: true, data: { status: "ok" } });
  }
  if (request.method === "POST" && pathname === "/floor/seed") return seed(env);
  if (request.method === "POST" && pathname === "/api/age-tokens") return issue(env, request);
  if (request.method === "POST" && pathname === "/floor/attestation-grants") return seedAttestationGrants(env, request);
  if (request.method === "POST" && pathname === "/credential") return issueAttestations(env, request);
  if (request.method === "POST" && pathname === SESSION_PATH) {
    const key = await readKey(env, request);
    if (!key) return json(401, { success: false });
    const { callback_url: callbackUrl } = await request.json<{ callback_url: string }>();
    const now = Date.now();
    const id = `ses_${crypto.randomUUID().replaceAll("-", "")}`;
    const state: State = {
      id,
      accountId: key.user_id,
      keyId: key.id,
      callbackUrl,
      status: "PENDING",
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + TTL_MS).toISOString(),
      resolvedAt: null,
    };
    await stub(env, id).open(state);
    return json(201, { success: true, data: { session_id: id, nonce: id } });
  }
  const match = /^\/api\/age-verification\/session\/([^/]+)(\/complete)?$/.exec(pathname);
  if (match && request.method === "GET" && !match[2]) {
    const key = await readKey(env, request);
    if (!key) return json(401, { success: false });
    const state = await stub(env, match[1]!).poll();
    return state ? json(200, { success: true, data: state }) : json(404, { success: false });
  }
  if (match && request.method === "POST" && match[2]) {
    const body = await request.json<{ age_token?: string }>();
    if (body.age_token !== undefined) return redeem(env, match[1]!, body.age_token);
    // The service's one D1 batch: the account read and the day's completion counter.
    const now = Date.now();
    const count = (name: string, seconds: number) => {
      const end = (Math.floor(now / 1000 / seconds) + 1) * seconds;
      return env.DB.prepare(
        "insert into account_counters (key, count, expires_at) values (?, 1, ?) on conflict (key) do update set count = count + 1 returning count",
      ).bind(`${name}:${end}`, new Date(end * 1000).toISOString());
    };
    const [read] = await env.DB.batch([
      env.DB.prepare(
        "select u.id, u.token_version, k.verified_dob from users u left join kyc_records k on k.user_id = u.id where u.id = ?",
      ).bind(FLOOR_USER),
      count("day", 86_400),
    ]);
    if (!read?.results[0]) return json(401, { success: false });
    const state = await stub(env, match[1]!).complete();
    return state ? json(200, { success: true, data: state }) : json(409, { success: false });
  }
  return json(404, { success: false });
}

export default {
  fetch: handle,
  // The safety-net copies the floor's completions enqueue, due 90 s later: the service's consumer makes one
  // D1 batch per copy (src/callbacks/attempts.ts claimNextAttempt: mark a stale attempt interrupted, claim
  // the next attempt unless attempt 1 has an outcome, read the event with its key's secrets and its
  // attempts), finds attempt 1 answered and drops the copy; so does this, statement for statement, copies
  // in parallel.
  async queue(batch: MessageBatch, env: Env) {
    await Promise.all(
      batch.messages.map(async (message) => {
        const eventId = String((message.body as { eventId?: unknown }).eventId ?? "");
        const stale = new Date(Date.now() - 60_000).toISOString();
        await env.DB.batch([
          env.DB.prepare(
            "update callback_attempts set error = 'interrupted' where event_id = ? and error = 'in_progress' and at <= ?",
          ).bind(eventId, stale),
          env.DB.prepare(
            "insert into callback_attempts (id, event_id, attempt, at, duration_ms, status_code, error) select null, id, " +
              "(select coalesce(max(attempt), 0) + 1 from callback_attempts where event_id = ?), ?, 0, null, 'in_progress' from callback_events " +
              "where id = ? and state = 'pending' and not exists (select 1 from callback_attempts where event_id = ? and error = 'in_progress') " +
              "and not exists (select 1 from callback_attempts where event_id = ? and attempt = 1 and (error is null or error not in ('in_progress', 'interrupted'))) " +
              "on conflict do nothing returning attempt",
          ).bind(eventId, new Date().toISOString(), eventId, eventId, eventId),
          env.DB.prepare(
            "select e.state, k.signing_secret_enc, k.previous_signing_secret_enc, k.previous_secret_expires_at from callback_events e left join api_keys k on k.id = 'key_floor' where e.id = ?",
          ).bind(eventId),
          env.DB.prepare("select attempt, error from callback_attempts where event_id = ? order by attempt desc").bind(eventId),
        ]);
        message.ack();
      }),
    );
  },
} satisfies ExportedHandler<Env>;
