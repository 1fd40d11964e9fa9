// The single-use secrets of issuance keep no time finer than a day (docs/attestations.md, "What is
// stored"): an offer is made by a signed-in account and an authorization code approved by one, so a
// row's millisecond expiry, minus its lifetime, would name the moment of that request, which the
// service's logs join to the account. Each row keeps only the UTC midnight that ends its day; the exact
// expiry travels in the secret itself, so every check stays exact to the second.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { attestationGrants } from "../../src/db/schema";
import {
  createGrant,
  GRANT_LIFETIME_SECONDS,
  grantExists,
  MAX_TX_CODE_ATTEMPTS,
  redeemOffer,
  spendGrant,
  type GrantKind,
} from "../../src/domain/attestations/grants";
import { root } from "../helpers/seed";

const DAY_MS = 86_400_000;
/**
 * 01:00:00.987 UTC today: every lifetime (at most 5 minutes) ends within the same day, so the row's day
 * is still live; the odd milliseconds check that the secret's whole seconds never lengthen a life.
 */
const oneInTheMorning = () => Math.floor(Date.now() / DAY_MS) * DAY_MS + 3_600_987;
const ctx = () => root();
const rowsOf = (kind: GrantKind) => ctx().home.select().from(attestationGrants).where(eq(attestationGrants.kind, kind));

describe("the grant rows' times", () => {
  it.each(["offer", "code", "token", "nonce"] as const)("a %s row keeps only the UTC midnight that ends its day", async (kind) => {
    const now = Date.now();
    const before = new Set((await rowsOf(kind)).map((row) => row.keyHash));
    await createGrant(
      ctx(),
      kind,
      now,
      kind === "offer"
        ? { txCode: "123456" }
        : kind === "code"
          ? { codeChallenge: "c".repeat(43), redirectUri: "https://wallet.example.org/cb" }
          : {},
    );
    const [row] = (await rowsOf(kind)).filter((r) => !before.has(r.keyHash));
    expect(row!.expiresAt).toMatch(/T00:00:00\.000Z$/);
    expect(Date.parse(row!.expiresAt)).toBeGreaterThan(now + GRANT_LIFETIME_SECONDS[kind] * 1000 - 1000);
    expect(Date.parse(row!.expiresAt)).toBeLessThanOrEqual(
      Math.floor((now + GRANT_LIFETIME_SECONDS[kind] * 1000) / DAY_MS) * DAY_MS + DAY_MS,
    );
  });
});

describe("the expiry checks stay exact while the row's day is live", () => {
  it.each(["code", "token", "nonce"] as const)("a %s is spent a second before its lifetime ends, and refused at its end", async (kind) => {
    const now = oneInTheMorning();
    const lifetime = GRANT_LIFETIME_SECONDS[kind] * 1000;
    const late = await createGrant(ctx(), kind, now);
    expect(await grantExists(ctx(), kind, late, now + lifetime)).toBe(false);
    expect(await spendGrant(ctx(), kind, late, now + lifetime)).toBeNull();
    const inTime = await createGrant(ctx(), kind, now);
    expect(await grantExists(ctx(), kind, inTime, now + lifetime - 1000)).toBe(true);
    expect(await spendGrant(ctx(), kind, inTime, now + lifetime - 1000)).not.toBeNull();
  });

  it("an offer is redeemed a second before its lifetime ends; at its end it is refused and no wrong code is counted", async () => {
    const now = oneInTheMorning();
    const lifetime = GRANT_LIFETIME_SECONDS.offer * 1000;
    const late = await createGrant(ctx(), "offer", now, { txCode: "123456" });
    for (let i = 0; i < MAX_TX_CODE_ATTEMPTS; i++) expect(await redeemOffer(ctx(), late, "000000", now + lifetime)).toBe(false);
    expect(await redeemOffer(ctx(), late, "123456", now + lifetime)).toBe(false);
    // Nothing was counted against it after its end: a clock set back (no real one is) would still find it unharmed.
    expect(await redeemOffer(ctx(), late, "123456", now + lifetime - 1000)).toBe(true);
    const inTime = await createGrant(ctx(), "offer", now, { txCode: "654321" });
    expect(await redeemOffer(ctx(), inTime, "654321", now + lifetime - 1000)).toBe(true);
  });
});
