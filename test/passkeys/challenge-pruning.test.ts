// The scheduled maintenance deletes expired passkey challenges (they name an account and a session),
// keeps live ones; a second run changes nothing.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { passkeyChallenges } from "../../src/db/schema";
import { daysAgo, runScheduled } from "../maintenance/helpers";
import { db, seedAccount } from "../helpers/seed";

describe("passkey challenge pruning", () => {
  it("deletes expired challenges and keeps live ones", async () => {
    const { id } = await seedAccount({ userType: "PERSONAL" });
    const challenge = (name: string, expiresAt: string) => ({
      challengeHash: `${name}-${id}`,
      userId: id,
      purpose: "approve" as const,
      sessionId: "ses_AAAAAAAAAAAAAAAAAAAAAAAA",
      nonceHash: "0".repeat(64),
      expiresAt,
    });
    await db()
      .insert(passkeyChallenges)
      .values([challenge("expired", daysAgo(1 / 1440)), challenge("live", daysAgo(-1 / 1440))]);
    const left = async () =>
      (await db().select().from(passkeyChallenges).where(eq(passkeyChallenges.userId, id))).map((c) => c.challengeHash.split("-")[0]);
    await runScheduled();
    expect(await left()).toEqual(["live"]);
    await runScheduled();
    expect(await left()).toEqual(["live"]);
  });
});
