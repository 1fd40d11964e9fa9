// The class of "a token approves twice across a key's life" (docs/double-blind.md "Where spent tokens are
// kept"): whatever the history of a key (published or not in each deploy, a scheduled run at any moment,
// the grace period changed between runs), no token's spend is recorded twice. Drawn by fast-check over the
// spent set's own statements (the spend the session object makes, the scheduled prune), with one fresh key
// per history; a spend is tried only while the key is published, as verification allows.
import { env } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/client";
import { insertSpentAgeToken } from "../../src/db/spent-age-tokens";
import { pruneSpentAgeTokens } from "../../src/maintenance/prune-spent-age-tokens";

const DAY = 86_400_000;
const randomHex = (bytes: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");

/** One deploy: whether the key is in the setting, the tokens presented meanwhile, then a scheduled run some days later. */
type Phase = { published: boolean; spends: number[]; afterDays: number; graceDays: number };

// Few distinct moments and tokens, so that short histories reach "spent, retired, grace passed, published again".
const phase: fc.Arbitrary<Phase> = fc.record({
  published: fc.boolean(),
  spends: fc.array(fc.integer({ min: 0, max: 1 }), { maxLength: 2 }),
  afterDays: fc.constantFrom(0, 1, 3, 31),
  graceDays: fc.constantFrom(1, 2, 30),
});

describe("a token is spent once, whatever happens to its key", () => {
  it("no history of deploys, runs and grace settings records one token's spend twice", { timeout: 120_000 }, async () => {
    const db = database(env.DB);
    await fc.assert(
      fc.asyncProperty(fc.array(phase, { minLength: 2, maxLength: 6 }), async (phases) => {
        const key = randomHex(32);
        // Another key always in service, so a run is never one "without token keys" (which changes nothing).
        const other = randomHex(32);
        const tokens = [randomHex(32), randomHex(32)];
        const recorded = new Set<number>();
        let now = Date.now();
        for (const { published, spends, afterDays, graceDays } of phases) {
          // Verification refuses a token of a key the deployment does not publish: no spend is tried then.
          for (const token of published ? spends : []) {
            if ((await insertSpentAgeToken(db, { nonceHash: tokens[token]!, tokenKeyId: key })) !== "recorded") continue;
            expect(recorded.has(token), `token ${token} recorded twice`).toBe(false);
            recorded.add(token);
          }
          now += afterDays * DAY;
          await pruneSpentAgeTokens(env.DB, published ? [key, other] : [other], new Date(now), graceDays);
        }
      }),
      {
        numRuns: 150,
        // Found by this property (seed 545198718): the key's records pruned under a one-day grace, then the key
        // published again under a thirty-day one, which read it as still within its grace and forgot its
        // retirement; token 0 was recorded a second time. Always tried first.
        examples: [
          [
            [
              { published: true, spends: [0], afterDays: 0, graceDays: 1 },
              { published: false, spends: [], afterDays: 0, graceDays: 1 },
              { published: false, spends: [], afterDays: 3, graceDays: 1 },
              { published: true, spends: [], afterDays: 0, graceDays: 30 },
              { published: true, spends: [0], afterDays: 0, graceDays: 1 },
            ],
          ],
        ],
      },
    );
  });
});
