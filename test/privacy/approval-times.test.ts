// Nothing an approval or a challenge writes on the account's side says when, finer than the day, the
// account answered or asked (docs/double-blind.md, docs/security-privacy.md): a database reader holding
// every table and the sessions' storage cannot join an account to a merchant's session by time. Scanned
// here after a passkey approval, a password approval and an abandoned approval challenge: every table
// with the account's rows (the users table and each table with a user_id column), the keyed counters
// (account_counters: their keys are keyed hashes the service itself can recompute for an account, so
// their windows count as the account's), on every D1 shard, before and after, and each session's
// Durable Object storage.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { SoftwareAuthenticator } from "../helpers/authenticator";
import { call } from "../helpers/http";
import { enrolPasskeyFor } from "../helpers/passkeys";
import { seedEndUser, seedMerchant } from "../helpers/seed";
import { complete, openSession, sessionObject } from "../helpers/sessions";
import { allShards, shardBindings } from "../helpers/shards";
import { stockTokens } from "../age-tokens/service-client";

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const MIDNIGHT = /T00:00:00(\.0+)?Z$/;

/** The tables that hold an account's rows: users itself, and every table with a user_id column (the same on every shard). */
async function accountTables(d1: D1Database): Promise<{ table: string; key: string }[]> {
  const { results } = await d1
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
    )
    .all<{ name: string }>();
  const tables: { table: string; key: string }[] = [];
  for (const { name } of results) {
    const columns = (await d1.prepare(`PRAGMA table_info(${name})`).all<{ name: string }>()).results.map((c) => c.name);
    if (name === "users") tables.push({ table: name, key: "id" });
    else if (columns.includes("user_id")) tables.push({ table: name, key: "user_id" });
  }
  return tables;
}

/** Every time value in the account's rows on every shard, as "table.column" -> values. */
async function accountTimes(userId: string): Promise<Map<string, string[]>> {
  const times = new Map<string, string[]>();
  for (const d1 of shardBindings()) {
    for (const { table, key } of await accountTables(d1)) {
      const { results } = await d1.prepare(`SELECT * FROM ${table} WHERE ${key} = ?`).bind(userId).all<Record<string, unknown>>();
      for (const row of results) {
        for (const [column, value] of Object.entries(row)) {
          const where = `${table}.${column}`;
          if (typeof value === "string" && ISO_TIME.test(value)) times.set(where, [...(times.get(where) ?? []), value]);
        }
      }
    }
  }
  return times;
}

/** Every counter row's expiry, on every shard: a window's end says when the count it holds was raised. */
async function counterTimes(): Promise<Map<string, string[]>> {
  const times = new Map<string, string[]>();
  for (const d1 of shardBindings()) {
    const { results } = await d1.prepare("SELECT key, expires_at FROM account_counters").all<{ key: string; expires_at: string }>();
    for (const row of results) times.set(`account_counters.expires_at (${row.key.slice(0, 8)})`, [row.expires_at]);
  }
  return times;
}

/** The times written by what ran between two scans: new or changed values. */
function written(before: Map<string, string[]>, after: Map<string, string[]>): { where: string; value: string }[] {
  return [...after].flatMap(([where, values]) =>
    values.filter((value) => !(before.get(where) ?? []).includes(value)).map((value) => ({ where, value })),
  );
}

describe("an approval leaves no account-side time finer than a day", () => {
  it("after a passkey approval and a password approval, no account row gained a time finer than a day, and no session's storage names the account", {
    timeout: 30_000,
  }, async () => {
    const merchant = await seedMerchant();
    const withPasskey = await seedEndUser("1990-01-01");
    const device = await SoftwareAuthenticator.create();
    await enrolPasskeyFor(withPasskey, device);
    const withPassword = await seedEndUser("1991-02-02");

    // The merchant's opens are counted by the minute on the merchant's own account: opened first, so
    // that the counter scan sees what the approvals wrote.
    const first = await openSession(merchant.apiKey);
    const second = await openSession(merchant.apiKey);
    const countersBefore = await counterTimes();
    const beforePasskey = await accountTimes(withPasskey.id);
    const options = await call("POST", `/api/age-verification/session/${first.session_id}/passkey-options`, {
      token: withPasskey.token,
      body: { nonce: first.nonce },
    });
    expect(options.status).toBe(200);
    const approved = await call("POST", `/api/age-verification/session/${first.session_id}/complete`, {
      token: withPasskey.token,
      body: { nonce: first.nonce, consent: true, assertion: await device.assert(options.body.data) },
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data.holder_binding).toBe("PASSKEY");

    const beforePassword = await accountTimes(withPassword.id);
    const answered = await complete(withPassword.token, second.session_id, second.nonce);
    expect(answered.status).toBe(200);
    expect(answered.body.data.holder_binding).toBe("PASSWORD");

    const passkeyWrites = written(beforePasskey, await accountTimes(withPasskey.id));
    // The passkey's last use is recorded, as the day only: the scan sees it, and it names no minute.
    expect(passkeyWrites.map((w) => w.where)).toContain("passkeys.last_used_at");
    const counterWrites = written(countersBefore, await counterTimes());
    // The approvals were counted (the completion limit), by the day only.
    expect(counterWrites.length).toBeGreaterThan(0);
    for (const write of [...passkeyWrites, ...written(beforePassword, await accountTimes(withPassword.id)), ...counterWrites]) {
      expect(write.value, `${write.where} was written by an approval`).toMatch(MIDNIGHT);
    }

    // The sessions' own storage holds the decision, never who made it.
    for (const session of [first, second]) {
      const stored = await runInDurableObject(sessionObject(session.session_id), async (_instance, state) =>
        JSON.stringify([...(await state.storage.list())]),
      );
      for (const account of [withPasskey, withPassword]) {
        expect(stored).not.toContain(account.id);
        expect(stored).not.toContain(account.email);
      }
    }
  });

  it("a pending approval challenge names no session: no session id, and no value the session stores", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    await enrolPasskeyFor(user);
    const session = await openSession(merchant.apiKey);
    const options = await call("POST", `/api/age-verification/session/${session.session_id}/passkey-options`, {
      token: user.token,
      body: { nonce: session.nonce },
    });
    expect(options.status).toBe(200);
    const results = await allShards<Record<string, unknown>>(
      "SELECT * FROM passkey_challenges WHERE user_id = ? AND purpose = 'approve'",
      user.id,
    );
    expect(results).toHaveLength(1);
    const row = JSON.stringify(results[0]);
    const stored = await runInDurableObject(
      sessionObject(session.session_id),
      async (_instance, state) => (await state.storage.get<{ nonceHash: string }>("state"))!,
    );
    expect(row).not.toContain(session.session_id);
    expect(row).not.toContain(stored.nonceHash);
    expect(results[0]!.nonce_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("an abandoned approval challenge leaves the account and the day, nothing finer; it still expires after five minutes", {
    timeout: 30_000,
  }, async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const device = await SoftwareAuthenticator.create();
    await enrolPasskeyFor(user, device);
    const before = await accountTimes(user.id);
    const session = await openSession(merchant.apiKey);
    const options = await call("POST", `/api/age-verification/session/${session.session_id}/passkey-options`, {
      token: user.token,
      body: { nonce: session.nonce },
    });
    expect(options.status).toBe(200);
    // Abandoned: the person closed the page. What stays until the prune runs:
    const writes = written(before, await accountTimes(user.id));
    expect(writes.map((w) => w.where)).toContain("passkey_challenges.expires_at");
    for (const write of writes) expect(write.value, `${write.where} was written by asking for a challenge`).toMatch(MIDNIGHT);
    // The day is all the row says, yet the challenge is good for five minutes only.
    vi.useFakeTimers({ now: Date.now() + 301_000, toFake: ["Date"] });
    try {
      const late = await call("POST", `/api/age-verification/session/${session.session_id}/complete`, {
        token: user.token,
        body: { nonce: session.nonce, consent: true, assertion: await device.assert(options.body.data) },
      });
      expect(late.status, late.text).toBe(400);
      expect(late.body.message).toMatch(/expired/);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("what an approval, an issuance or a challenge writes keeps no order of its making", () => {
  // A rowid table keeps its rows in the order they were made, and a dump (`wrangler d1 export`) lists them
  // so: an account's day row, made by its first approval or token issuance of the day, would sit between
  // rows whose windows name a minute (a merchant's opens), and so be dated to the minute by its neighbours.
  it("after issuances and merchants' opens interleaved, the counters list their rows by their keyed hash, and have no rowid", {
    timeout: 60_000,
  }, async () => {
    for (let i = 0; i < 4; i++) {
      const merchant = await seedMerchant(`counter order ${i}`, "live", { shard: 0 });
      await openSession(merchant.apiKey);
      const adult = await seedEndUser("1990-01-01", { shard: 0 });
      await stockTokens(adult.token, 18, 1);
    }
    const d1 = shardBindings()[0]!;
    const listed = (await d1.prepare("SELECT * FROM account_counters").all<{ key: string }>()).results.map((row) => row.key);
    expect(listed.length).toBeGreaterThanOrEqual(8);
    expect(listed).toEqual([...listed].sort());
    await expect(d1.prepare("SELECT rowid FROM account_counters").all()).rejects.toThrow(/rowid/);
  });

  it("every table of the account's side that gains a row from an approval, a token issuance or an abandoned challenge has no rowid", {
    timeout: 60_000,
  }, async () => {
    const counts = async () => {
      const all = new Map<string, number>();
      for (const [shard, d1] of shardBindings().entries()) {
        for (const { table } of [...(await accountTables(d1)), { table: "account_counters", key: "key" }]) {
          const row = await d1.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>();
          all.set(`${shard}:${table}`, row!.n);
        }
      }
      return all;
    };
    const gained = new Set<string>();
    const watch = async (actions: () => Promise<void>) => {
      const before = await counts();
      await actions();
      for (const [where, n] of await counts()) if (n > (before.get(where) ?? 0)) gained.add(where);
    };
    const merchant = await seedMerchant();
    const person = await seedEndUser("1990-01-01");
    const device = await SoftwareAuthenticator.create();
    await enrolPasskeyFor(person, device);
    const other = await seedEndUser("1991-02-02");
    const sessions = [await openSession(merchant.apiKey), await openSession(merchant.apiKey), await openSession(merchant.apiKey)] as const;
    await watch(async () => {
      // A passkey approval, an abandoned approval challenge, an issuance confirmed by the passkey, an abandoned confirmation.
      const [first, second] = sessions;
      const options = await call("POST", `/api/age-verification/session/${first.session_id}/passkey-options`, {
        token: person.token,
        body: { nonce: first.nonce },
      });
      expect(
        (
          await call("POST", `/api/age-verification/session/${first.session_id}/complete`, {
            token: person.token,
            body: { nonce: first.nonce, consent: true, assertion: await device.assert(options.body.data) },
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await call("POST", `/api/age-verification/session/${second.session_id}/passkey-options`, {
            token: person.token,
            body: { nonce: second.nonce },
          })
        ).status,
      ).toBe(200);
      const confirm = await call("POST", "/api/users/me/passkeys/confirmation-options", { token: person.token });
      await stockTokens(person.token, 18, 1, { confirmation: await device.assert(confirm.body.data) });
      expect((await call("POST", "/api/users/me/passkeys/confirmation-options", { token: person.token })).status).toBe(200);
      // A password approval and an issuance by an account without a passkey.
      expect((await complete(other.token, sessions[2].session_id, sessions[2].nonce)).status).toBe(200);
      await stockTokens(other.token, 18, 1);
    });
    expect([...gained].some((where) => where.endsWith(":account_counters"))).toBe(true);
    expect([...gained].some((where) => where.endsWith(":passkey_challenges"))).toBe(true);
    for (const where of gained) {
      const [shard, table] = where.split(":") as [string, string];
      await expect(
        shardBindings()[Number(shard)]!.prepare(`SELECT rowid FROM ${table}`).all(),
        `${table} keeps the order of its rows' making`,
      ).rejects.toThrow(/rowid/);
    }
  });
});
