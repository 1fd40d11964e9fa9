// forgot-password does its work after the answer (waitUntil): the answer cannot tell, by its content or
// by its timing, whether an address has an account. Observed deterministically: the database is held
// closed while the handler runs, so the answer can only arrive if it does not wait for the lookup.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { freshAddress, register } from "../helpers/accounts";
import { buildRequest, readResponse } from "../helpers/http";
import { uniqueEmail } from "../helpers/seed";
import { aroundD1 } from "../helpers/around-d1";

/** A D1 binding whose queries wait until the test opens it; `held` counts the queries waiting. */
function heldDatabase(db: D1Database) {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const state = { held: 0, open };
  const wait = async () => {
    state.held++;
    await opened;
  };
  const binding = aroundD1(db, async (call, sql) => {
    // The daily cap per address is counted before the answer, for every address alike, in one batch of
    // counter upserts (docs/limits.md): it passes. Every statement (the account lookup first) waits; the
    // test below still requires one to be waiting when the answer comes.
    if (sql === undefined) return call();
    await wait();
    return call();
  });
  return { binding, state };
}

const resetMails = async (to: string) =>
  (await env.DB.prepare('SELECT count(*) AS n FROM dev_outbox WHERE "to" = ? AND subject = ?')
    .bind(to, "Reset your password")
    .first<{ n: number }>())!.n;

/** Asks for a reset with the database held; answers once the handler has answered, then lets the work run. */
async function forgotWithDatabaseHeld(email: string) {
  const database = heldDatabase(env.DB);
  const context = createExecutionContext();
  const answer = worker.fetch(
    buildRequest("POST", "/api/auth/forgot-password", { body: { email }, headers: freshAddress() }),
    { ...env, DB: database.binding },
    context,
  );
  // Only a handler that waited for the lookup misses this bound: the passing path never comes near it.
  const stuck = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("the answer waited for the account lookup")), 2_000));
  const response = await readResponse(await Promise.race([answer, stuck]));
  const heldWhenAnswered = database.state.held;
  const mailsWhenAnswered = await resetMails(email);
  database.state.open();
  await waitOnExecutionContext(context);
  return { response, heldWhenAnswered, mailsWhenAnswered, mailsAfter: await resetMails(email) };
}

describe("forgot-password answers before it looks the address up", () => {
  it("answers a known and an unknown address alike, before any lookup; only the known one is mailed, afterwards", async () => {
    const account = await register();
    const known = await forgotWithDatabaseHeld(account.email);
    const unknown = await forgotWithDatabaseHeld(uniqueEmail("nobody"));

    for (const outcome of [known, unknown]) {
      expect(outcome.response.status).toBe(202);
      // The lookup had started and was waiting on the closed database when the answer came.
      expect(outcome.heldWhenAnswered).toBeGreaterThan(0);
      expect(outcome.mailsWhenAnswered).toBe(0);
    }
    expect(unknown.response.text).toBe(known.response.text);
    expect([...unknown.response.headers.keys()].sort()).toEqual([...known.response.headers.keys()].sort());
    expect(known.response.headers.get("cache-control")).toBe(unknown.response.headers.get("cache-control"));

    expect(known.mailsAfter).toBe(1);
    expect(unknown.mailsAfter).toBe(0);
  });
});
