// Deleting a merchant account with many pending sessions is bounded (docs/limits.md): the request
// closes at most CLOSED_IN_REQUEST sessions itself and hands the rest to the queue, which closes them
// all; none is left holding the deleted merchant's data (each keeps only its link's nonce hash).
import { createExecutionContext, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app";
import { CLOSED_IN_REQUEST, SESSIONS_PER_MESSAGE } from "../../src/session/closing-for-deleted-account";
import { countingEnv } from "../helpers/counting-env";
import { buildRequest } from "../helpers/http";
import { seedMerchant } from "../helpers/seed";
import { openSession, sessionObject } from "../helpers/sessions";

const stored = (sessionId: string) =>
  runInDurableObject(sessionObject(sessionId), async (_instance, state) => (await state.storage.list()).size);
/** What a closed session keeps: its link's nonce hash and when to forget it, nothing of the merchant (test/session/withdrawn-link.test.ts). */
const keptBeyondWithdrawn = (sessionId: string) =>
  runInDurableObject(
    sessionObject(sessionId),
    async (_instance, state) => [...(await state.storage.list()).keys()].filter((key) => key !== "withdrawn").length,
  );

describe("deleting an account with many pending sessions", { timeout: 120_000 }, () => {
  it("closes a bounded number in the request and the rest through the queue; every session forgets the merchant", async () => {
    const merchant = await seedMerchant();
    const count = CLOSED_IN_REQUEST + SESSIONS_PER_MESSAGE + 30; // the request's share, one full message and a partial one
    const ids: string[] = [];
    for (let i = 0; i < count; i += 20) {
      ids.push(
        ...(await Promise.all(Array.from({ length: Math.min(20, count - i) }, () => openSession(merchant.apiKey)))).map(
          (s) => s.session_id,
        ),
      );
    }
    expect(await stored(ids[0]!)).toBeGreaterThan(0);

    const { env: counted, counts } = countingEnv();
    const ctx = createExecutionContext();
    const res = await createApp().fetch(buildRequest("DELETE", "/api/users/account", { token: merchant.account.token }), counted, ctx);
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(200);
    // The request's own Durable Object calls are bounded, whatever the number of pending sessions.
    expect(counts.durableObject).toBeLessThanOrEqual(CLOSED_IN_REQUEST);

    await vi.waitFor(
      async () => {
        const left = (await Promise.all(ids.map(keptBeyondWithdrawn))).filter((size) => size > 0).length;
        expect(left).toBe(0);
      },
      { timeout: 60_000, interval: 500 },
    );
  });
});
