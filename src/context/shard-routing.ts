// Where each entry point finds the shard of the account it works for (docs/operations.md), without a lookup: the
// shard is tagged into account ids (a JWT's sub, a passkey's user handle), API keys and email-link
// tokens (src/lib/shard-tag.ts). A value without a valid tag is from before sharding: shard 0. A tag
// naming a shard this deployment does not have is a forgery (only this service mints tags) and reads as
// shard 0 too, where the value is not found and the request fails as an unknown one does.
import { shardOfValue } from "../lib/shard-tag";
import type { ServiceContext } from "./service-context";

/** base64url characters after the prefix: 18 bytes in an id, 32 in an API key or an email-link token. */
const ID_CHARS = 24;
const SECRET_CHARS = 43;

/** The shard itself when this deployment has it, else 0 (a forged tag, or a row naming a shard since removed). */
export const bounded = (ctx: ServiceContext, shard: number) => (shard < ctx.shards.length ? shard : 0);

/** The shard of an account id (usr_…), or of any id minted with newTaggedId. */
export const shardOfAccountId = async (ctx: ServiceContext, accountId: string) => bounded(ctx, await shardOfValue(accountId, ID_CHARS));

/**
 * The tags read from recently presented API keys, by the key's SHA-256 (the hash its row is found by,
 * never the key itself). The tag is a pure function of the key, so a merchant's steady traffic pays one
 * digest per request rather than two (docs/performance.md). Bounded: when full it starts again, so a
 * flood of made-up keys costs only the digests it would have cost anyway.
 */
const tagsByKeyHash = new Map<string, number>();
export const KEY_TAGS_REMEMBERED = 1024;

/** The shard an API key (svc_sk_live_…, svc_sk_test_…, or a 1.0.0 svc_sk_…) was made on; `keyHash` is its hashApiKey. */
export async function shardOfApiKey(ctx: ServiceContext, apiKey: string, keyHash: string): Promise<number> {
  let tag = tagsByKeyHash.get(keyHash);
  if (tag === undefined) {
    tag = await shardOfValue(apiKey, SECRET_CHARS);
    if (tagsByKeyHash.size >= KEY_TAGS_REMEMBERED) tagsByKeyHash.clear();
    tagsByKeyHash.set(keyHash, tag);
  }
  return bounded(ctx, tag);
}

/** The shard of an email link's token (verify, reset, change of email). */
export const shardOfEmailToken = async (ctx: ServiceContext, token: string) => bounded(ctx, await shardOfValue(token, SECRET_CHARS));

/** The context on the account's shard. */
export const onAccountShard = async (ctx: ServiceContext, accountId: string) => ctx.onShard(await shardOfAccountId(ctx, accountId));

/** The shard the context has chosen; throws on a root context (a path that forgot to choose). */
export function chosenShard(ctx: ServiceContext): number {
  if (ctx.shard === undefined) throw new Error("no shard chosen");
  return ctx.shard;
}
