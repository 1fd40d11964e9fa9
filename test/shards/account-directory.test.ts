// The email directory on the home shard (docs/operations.md, src/domain/accounts/account-directory.ts): an address
// is unique across every shard, sign-in finds the account's shard from it, and a claim whose account was
// never written does not lock the address out for ever.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ABANDONED_CLAIM_MS } from "../../src/domain/accounts/account-directory";
import { accountDirectory } from "../../src/db/schema";
import { newTaggedId } from "../../src/lib/ids";
import { freshAddress, PASSWORD, register } from "../helpers/accounts";
import { call, expectError } from "../helpers/http";
import { db, uniqueEmail } from "../helpers/seed";
import { countAllShards } from "../helpers/shards";
import { rowWhere } from "../helpers/rows";

const body = (email: string) => ({ email, password: PASSWORD, userType: "PERSONAL" });
const claimOf = (email: string) => rowWhere(db(), accountDirectory, eq(accountDirectory.email, email));
const accountsWith = (email: string) => countAllShards("SELECT count(*) AS n FROM users WHERE email = ?", email);

describe("one address, one account, across shards", () => {
  it("two registrations of one address at the same moment: one account, the other 409, one claim", { timeout: 60_000 }, async () => {
    for (let round = 0; round < 6; round++) {
      const email = uniqueEmail("race");
      const results = await Promise.all(
        [1, 2].map(() => call("POST", "/api/auth/register", { body: body(email), headers: freshAddress() })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
      expectError(results.find((r) => r.status === 409)!, 409, "EMAIL_TAKEN");
      expect(await accountsWith(email)).toBe(1);
      const winner = results.find((r) => r.status === 201)!.body.data.user.id;
      expect((await claimOf(email))?.userId).toBe(winner);
    }
  });

  it("signs in from the address wherever the account is, and refuses a wrong password the same way as an unknown address", async () => {
    for (let i = 0; i < 4; i++) {
      const account = await register();
      const res = await call("POST", "/api/auth/login", { body: { email: account.email, password: PASSWORD }, headers: freshAddress() });
      expect(res.status).toBe(200);
      expect(res.body.data.user.id).toBe(account.user.id);
      expectError(
        await call("POST", "/api/auth/login", { body: { email: account.email, password: "not the password" }, headers: freshAddress() }),
        401,
        "INVALID_CREDENTIALS",
      );
    }
    expectError(
      await call("POST", "/api/auth/login", { body: { email: uniqueEmail("nobody"), password: PASSWORD }, headers: freshAddress() }),
      401,
      "INVALID_CREDENTIALS",
    );
  });

  it("an email change moves the claim: the new address is held, the old one is free", async () => {
    const account = await register();
    await call("POST", "/api/auth/verify-email", { body: { token: await mailedTokenOf(account.email) } });
    const newEmail = uniqueEmail("moved");
    expect((await call("POST", "/api/users/change-email", { token: account.token, body: { newEmail, password: PASSWORD } })).status).toBe(
      202,
    );
    expect((await call("POST", "/api/auth/confirm-email-change", { body: { token: await mailedTokenOf(newEmail) } })).status).toBe(200);
    expect((await claimOf(newEmail))?.userId).toBe(account.user.id);
    expect(await claimOf(account.email)).toBeUndefined();
    expect((await call("POST", "/api/auth/register", { body: body(account.email), headers: freshAddress() })).status).toBe(201);
  });

  it("account deletion releases the address", async () => {
    const account = await register();
    await call("POST", "/api/auth/verify-email", { body: { token: await mailedTokenOf(account.email) } });
    expect((await call("DELETE", "/api/users/account", { token: account.token, body: { password: PASSWORD } })).status).toBe(200);
    expect(await claimOf(account.email)).toBeUndefined();
  });
});

describe("a claim whose account was never written", () => {
  async function strandedClaim(ageMs: number) {
    const email = uniqueEmail("stranded");
    const userId = await newTaggedId("usr", 1);
    await db()
      .insert(accountDirectory)
      .values({ email, userId, claimedAt: new Date(Date.now() - ageMs).toISOString() });
    return { email, userId };
  }

  it("is taken over by the next registration once it is older than a registration takes", async () => {
    const stranded = await strandedClaim(ABANDONED_CLAIM_MS + 5_000);
    const res = await call("POST", "/api/auth/register", { body: body(stranded.email), headers: freshAddress() });
    expect(res.status).toBe(201);
    expect((await claimOf(stranded.email))?.userId).toBe(res.body.data.user.id);
    expect(await accountsWith(stranded.email)).toBe(1);
  });

  it("is left alone while it is recent (a registration may be between its two writes)", async () => {
    const stranded = await strandedClaim(1_000);
    expectError(await call("POST", "/api/auth/register", { body: body(stranded.email), headers: freshAddress() }), 409, "EMAIL_TAKEN");
    expect((await claimOf(stranded.email))?.userId).toBe(stranded.userId);
  });

  it("is not taken over while its account exists, however old the claim", async () => {
    const account = await register();
    await db().update(accountDirectory).set({ claimedAt: "2020-01-01T00:00:00.000Z" }).where(eq(accountDirectory.email, account.email));
    expectError(await call("POST", "/api/auth/register", { body: body(account.email), headers: freshAddress() }), 409, "EMAIL_TAKEN");
    expect((await claimOf(account.email))?.userId).toBe(account.user.id);
  });
});

/** The newest mailed token to the address (the development outbox is on the home shard). */
async function mailedTokenOf(to: string): Promise<string> {
  const row = await env.DB.prepare('SELECT text FROM dev_outbox WHERE "to" = ? ORDER BY id DESC LIMIT 1')
    .bind(to)
    .first<{ text: string }>();
  const match = /[?&]token=([^\s&]+)/.exec(row?.text ?? "");
  if (!match) throw new Error(`no token mailed to ${to}`);
  return decodeURIComponent(match[1]!);
}
