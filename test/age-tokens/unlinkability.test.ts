// Double-blind, as stored (docs/api-contract.md §Privacy, §Age tokens): two verified adults are issued tokens, which then approve
// sessions of two merchants in a shuffled order. Afterwards every D1 table, every session object's
// storage, the callbacks sent and every log line are read, and nothing in them relates a redemption to
// an account: what issuance and redemption left behind is a count per account and day, and the spent
// tokens' nonce hashes; session rows name no account and account rows name no session.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { call } from "../helpers/http";
import { seedEndUser, seedMerchant } from "../helpers/seed";
import { birthdayToday, sessionObject } from "../helpers/sessions";
import { toHexString, unb64url } from "./rfc-client";
import { stockTokens } from "./service-client";
import { shardBindings } from "../helpers/shards";

const CALLBACK_URL = "https://merchant.example/hooks/age";

/** Every row of every table, on every D1 shard (docs/operations.md): each table's rows from all shards together. */
async function everyRow(): Promise<Map<string, string[]>> {
  const rows = new Map<string, string[]>();
  for (const d1 of shardBindings()) {
    const { results: tables } = await d1
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations'",
      )
      .all<{ name: string }>();
    for (const { name } of tables)
      rows.set(name, [
        ...(rows.get(name) ?? []),
        ...(await d1.prepare(`SELECT * FROM "${name}"`).all()).results.map((row) => JSON.stringify(row)),
      ]);
  }
  return rows;
}

function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = crypto.getRandomValues(new Uint32Array(1))[0]! % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe("nothing stored or logged links a redemption to an account", () => {
  it("two accounts, two merchants, shuffled redemptions: D1, the session objects, the callbacks and the logs hold only counts and spent-token hashes", async () => {
    const people = [await seedEndUser(birthdayToday(30)), await seedEndUser(birthdayToday(45))];
    const merchants = [await seedMerchant("shop one"), await seedMerchant("shop two")];
    const before = await everyRow();
    const lines: string[] = [];
    for (const method of ["log", "info", "warn", "error"] as const)
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
    const sent = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 204 }));

    // Issuance: each account stocks up; the test keeps who got which token, the service must not.
    const issued = [...(await stockTokens(people[0]!.token, 18, 3)), ...(await stockTokens(people[1]!.token, 18, 3))];
    const sessions: { id: string; nonce: string }[] = [];
    for (const merchant of [...merchants, ...merchants, ...merchants]) {
      const res = await call("POST", "/api/age-verification/session", {
        apiKey: merchant.apiKey,
        body: { age_required: 18, callback_url: CALLBACK_URL, double_blind: true },
      });
      expect(res.status, res.text).toBe(201);
      sessions.push({ id: res.body.data.session_id, nonce: res.body.data.nonce });
    }
    // Redemption, in a shuffled order: no Authorization header, only the token.
    const order = shuffled(issued);
    for (const [i, token] of order.entries()) {
      const res = await call("POST", `/api/age-verification/session/${sessions[i]!.id}/complete`, {
        body: { nonce: sessions[i]!.nonce, consent: true, age_token: token },
      });
      expect(res.body.data, res.text).toMatchObject({ status: "APPROVED", holder_binding: "ANONYMOUS_TOKEN" });
    }
    await vi.waitFor(() => expect(sent.mock.calls.filter(([input]) => String(input) === CALLBACK_URL)).toHaveLength(sessions.length), {
      timeout: 10_000,
    });

    // What would link: anything of an account, beside anything of a session or a token.
    const accountMarks = people.flatMap((p) => [p.id, p.email]);
    const sessionIds = sessions.map((s) => s.id);
    const merchantMarks = merchants.flatMap((m) => [m.account.id, m.keyId]);
    const spentHashes = await Promise.all(
      issued.map(async (t) => toHexString(await crypto.subtle.digest("SHA-256", unb64url(t).slice(2, 34)))),
    );
    const tokenMarks = [...issued, ...issued.map((t) => toHexString(unb64url(t)))];

    const after = await everyRow();
    // The sessions' callback events, by their webhook ids (their attempts name only those).
    const eventIds = (after.get("callback_events") ?? [])
      .map((row) => JSON.parse(row) as { id: string; session_id: string })
      .filter((e) => sessionIds.includes(e.session_id))
      .map((e) => e.id);
    for (const [table, rows] of after) {
      const added = rows.filter((row) => !(before.get(table) ?? []).includes(row));
      for (const row of added) {
        for (const mark of tokenMarks) expect(row, `${table} holds a token`).not.toContain(mark);
        if (table === "spent_age_tokens") {
          // Only a nonce hash and the key's id.
          const parsed = JSON.parse(row) as Record<string, string>;
          expect(Object.keys(parsed).sort()).toEqual(["nonce_hash", "token_key_id"]);
          expect(spentHashes).toContain(parsed.nonce_hash);
        } else if (table === "account_counters") {
          // A keyed hash, a number, the window's end: no account id, no time finer than the window.
          const parsed = JSON.parse(row) as { key: string; count: number; expires_at: string };
          expect(Object.keys(parsed).sort()).toEqual(["count", "expires_at", "key"]);
          expect(parsed.key).toMatch(/^[0-9a-f]{64}$/);
          expect(parsed.expires_at).toMatch(/T\d\d:\d\d:00\.000Z$/);
        } else {
          // Anything else that changed is the sessions' own record or the merchants' (their key's last use), and names no person.
          expect(
            [...sessionIds, ...eventIds, ...merchantMarks].some((id) => row.includes(id)),
            `${table} changed outside the sessions and merchants: ${row}`,
          ).toBe(true);
          for (const mark of accountMarks) expect(row, `${table} names an account`).not.toContain(mark);
        }
        for (const hash of spentHashes) if (table !== "spent_age_tokens") expect(row, `${table} holds a spent hash`).not.toContain(hash);
      }
    }
    // The day's count of each account is all issuance left, and its total is the tokens issued.
    const newCounters = (after.get("account_counters") ?? [])
      .filter((row) => !(before.get("account_counters") ?? []).includes(row))
      .map((row) => JSON.parse(row) as { count: number; expires_at: string });
    expect(newCounters.filter((c) => c.expires_at.endsWith("T00:00:00.000Z")).map((c) => c.count)).toEqual([3, 3]);

    for (const session of sessions) {
      const stored = await runInDurableObject(sessionObject(session.id), async (_instance, state) =>
        JSON.stringify([...(await state.storage.list()).entries()]),
      );
      for (const mark of [...accountMarks, ...tokenMarks, ...spentHashes]) expect(stored, "a session object holds it").not.toContain(mark);
    }
    const callbacks = sent.mock.calls.filter(([input]) => String(input) === CALLBACK_URL).map(([, init]) => String(init!.body));
    for (const mark of [...accountMarks, ...tokenMarks, ...spentHashes]) {
      for (const body of callbacks) expect(body, "a callback carries it").not.toContain(mark);
      for (const line of lines) expect(line, "a log line carries it").not.toContain(mark);
    }
    vi.restoreAllMocks();
  });
});
