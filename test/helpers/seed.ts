// Test fixtures that go through the domain functions, not hand-written SQL.
import { env } from "cloudflare:test";
import { database } from "../../src/db/client";
import { accountDirectory, users } from "../../src/db/schema";
import { createApiKey } from "../../src/domain/keys/api-keys";
import { serviceContext } from "../../src/service";
import { newTaggedId } from "../../src/lib/ids";
import { shardCount } from "./shards";
import { hashPassword } from "../../src/lib/password";
import { signAccountToken } from "../../src/lib/jwt";
import { nowIso } from "../../src/lib/time";
import { verifyKycViaSandbox } from "./kyc";

/** The home shard (DB): the directory, spent age tokens, the development outbox, and accounts from before sharding. */
export const db = () => database(env.DB);
/** The isolate's root service context: no shard chosen (`root().onShard(account.shard)` gives an account's). */
export const root = () => serviceContext(env);

/** Every seeded account's password (the accounts tests register theirs through the real endpoints). */
export const SEEDED_PASSWORD = "correct horse battery";
// One hash for every seeded account of a test file: PBKDF2 at full strength costs tens of milliseconds.
let seededHash: Promise<string> | undefined;
const seededPasswordHash = () => (seededHash ??= hashPassword(SEEDED_PASSWORD, env.PASSWORD_PEPPER!));

let counter = 0;
export const uniqueEmail = (label = "user") => `${label}-${Date.now()}-${++counter}@example.test`;

export type SeededAccount = { id: string; email: string; token: string; companyName: string | null; shard: number };

// Seeded accounts take the shards in turn, so every test file has accounts on each shard.
let nextShard = 0;

/**
 * An account row and a valid JWT for it, without the registration flow (tests of other areas use it;
 * the accounts tests go through the real endpoints).
 */
export async function seedAccount(
  options: { userType?: "PERSONAL" | "BUSINESS"; emailVerified?: boolean; companyName?: string; shard?: number } = {},
): Promise<SeededAccount> {
  const userType = options.userType ?? "BUSINESS";
  const shard = options.shard ?? nextShard++ % shardCount();
  const id = await newTaggedId("usr", shard);
  const email = uniqueEmail(userType.toLowerCase());
  const companyName = userType === "BUSINESS" ? (options.companyName ?? "Acme Wines Ltd") : null;
  const now = nowIso();
  await db().insert(accountDirectory).values({ email, userId: id, claimedAt: now });
  await root()
    .onShard(shard)
    .db.insert(users)
    .values({
      id,
      email,
      passwordHash: await seededPasswordHash(),
      firstName: "Test",
      lastName: "Account",
      companyName,
      userType,
      emailVerified: options.emailVerified ?? true,
      tokenVersion: 0,
      createdAt: now,
      updatedAt: now,
    });
  return { id, email, token: await signAccountToken(env.JWT_SECRET!, id, 0), companyName, shard };
}

/** A merchant (verified BUSINESS account) with one API key, created by the key domain function. */
export async function seedMerchant(name = "default key", mode: "live" | "test" = "live", options: { shard?: number } = {}) {
  const account = await seedAccount({ userType: "BUSINESS", ...options });
  const created = await createApiKey(root().onShard(account.shard), account.id, name, mode);
  return { account, keyId: created.key.id, apiKey: created.apiKey, signingSecret: created.signingSecret, shard: account.shard };
}

/** An end user (PERSONAL) whose identity is verified, through the sandbox provider, with this date of birth. */
export async function seedEndUser(dateOfBirth: string, options: { shard?: number } = {}) {
  const account = await seedAccount({ userType: "PERSONAL", ...options });
  await verifyKycViaSandbox(account.token, dateOfBirth);
  return account;
}
