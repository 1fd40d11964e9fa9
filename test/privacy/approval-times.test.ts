// Nothing an approval writes on the account's side says when, to the minute, the account answered
// (docs/security-privacy.md; docs/api-contract.md §Privacy): a database reader holding every table and the sessions' storage
// cannot join an account to a merchant's session by time. Scanned here after a passkey approval and a
// password approval: every table with the account's rows (the users table and each table with a
// user_id column), on every D1 shard (docs/operations.md), before and after, and each session's Durable Object storage.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SoftwareAuthenticator } from "../helpers/authenticator";
import { call } from "../helpers/http";
import { enrolPasskeyFor } from "../helpers/passkeys";
import { seedEndUser, seedMerchant } from "../helpers/seed";
import { complete, openSession, sessionObject } from "../helpers/sessions";
import { allShards, shardBindings } from "../helpers/shards";

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const MIDNIGHT = /T00:00:00(\.0+)?Z$/;

/** The tables that hold an account's rows: users itself, and every table with a user_id column (the same on every shard). */
async function accountTables(d1: D1Database): Promise<{ table: string; key: string }[]> {
  const { results } = await d1.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'").all<{ name: string }>();
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

/** The times written by what ran between two scans: new or changed values. */
function written(before: Map<string, string[]>, after: Map<string, string[]>): { where: string; value: string }[] {
  return [...after].flatMap(([where, values]) => values.filter((value) => !(before.get(where) ?? []).includes(value)).map((value) => ({ where, value })));
}

describe("an approval leaves no account-side time finer than a day", () => {
  it("after a passkey approval and a password approval, no account row gained a time finer than a day, and no session's storage names the account", async () => {
    const merchant = await seedMerchant();
    const withPasskey = await seedEndUser("1990-01-01");
    const device = await SoftwareAuthenticator.create();
    await enrolPasskeyFor(withPasskey, device);
    const withPassword = await seedEndUser("1991-02-02");

    const beforePasskey = await accountTimes(withPasskey.id);
    const first = await openSession(merchant.apiKey);
    const options = await call("POST", `/api/age-verification/session/${first.session_id}/passkey-options`, { token: withPasskey.token, body: { nonce: first.nonce } });
    expect(options.status).toBe(200);
    const approved = await call("POST", `/api/age-verification/session/${first.session_id}/complete`, {
      token: withPasskey.token,
      body: { nonce: first.nonce, consent: true, assertion: await device.assert(options.body.data) },
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data.holder_binding).toBe("PASSKEY");

    const beforePassword = await accountTimes(withPassword.id);
    const second = await openSession(merchant.apiKey);
    const answered = await complete(withPassword.token, second.session_id, second.nonce);
    expect(answered.status).toBe(200);
    expect(answered.body.data.holder_binding).toBe("PASSWORD");

    const passkeyWrites = written(beforePasskey, await accountTimes(withPasskey.id));
    // The passkey's last use is recorded, as the day only: the scan sees it, and it names no minute.
    expect(passkeyWrites.map((w) => w.where)).toContain("passkeys.last_used_at");
    for (const write of [...passkeyWrites, ...written(beforePassword, await accountTimes(withPassword.id))]) {
      expect(write.value, `${write.where} was written by an approval`).toMatch(MIDNIGHT);
    }

    // The sessions' own storage holds the decision, never who made it.
    for (const session of [first, second]) {
      const stored = await runInDurableObject(sessionObject(session.session_id), async (_instance, state) => JSON.stringify([...(await state.storage.list())]));
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
    const options = await call("POST", `/api/age-verification/session/${session.session_id}/passkey-options`, { token: user.token, body: { nonce: session.nonce } });
    expect(options.status).toBe(200);
    const results = await allShards<Record<string, unknown>>("SELECT * FROM passkey_challenges WHERE user_id = ? AND purpose = 'approve'", user.id);
    expect(results).toHaveLength(1);
    const row = JSON.stringify(results[0]);
    const stored = await runInDurableObject(sessionObject(session.session_id), async (_instance, state) => (await state.storage.get<{ nonceHash: string }>("state"))!);
    expect(row).not.toContain(session.session_id);
    expect(row).not.toContain(stored.nonceHash);
    expect(results[0]!.nonce_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
