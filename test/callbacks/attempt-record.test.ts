// An attempt's record (src/callbacks/attempts.ts recordAttempt) moves only a pending event: a consumer
// that records late (its claim went stale and another copy delivered meanwhile, or the dead-letter handler
// closed the event) cannot turn a settled event into another state.
import { describe, expect, it } from "vitest";
import { claimNextAttempt, recordAttempt } from "../../src/callbacks/attempts";
import { attemptsOf, eventState, seedResolvedSession } from "../helpers/callbacks";
import { seedMerchant } from "../helpers/seed";
import { dbOfAccount } from "../helpers/shards";

describe("recording an attempt", () => {
  it("settles a pending event once; a later record changes its attempt's row but never the settled state", async () => {
    const merchant = await seedMerchant();
    const message = await seedResolvedSession(merchant);
    const db = await dbOfAccount(merchant.account.id);
    const at = new Date().toISOString();
    const claim = await claimNextAttempt(db, {
      eventId: message.webhookId,
      keyId: merchant.keyId,
      awaitsAttempt: undefined,
      at,
      staleBefore: at,
    });
    expect(claim.kind).toBe("claimed");
    const attempt = claim.kind === "claimed" ? claim.attempt : 0;

    await recordAttempt(db, { eventId: message.webhookId, attempt, at, durationMs: 12, statusCode: 200, error: null }, "delivered");
    expect(await eventState(message.webhookId)).toBe("delivered");

    // A late record of the same attempt, deciding to give up.
    await recordAttempt(db, { eventId: message.webhookId, attempt, at, durationMs: 15_000, statusCode: null, error: "timeout" }, "failed");
    expect(await eventState(message.webhookId)).toBe("delivered");
    const [row] = await attemptsOf(message.webhookId);
    expect(row).toMatchObject({ attempt, statusCode: null, error: "timeout", durationMs: 15_000 });
  });
});
