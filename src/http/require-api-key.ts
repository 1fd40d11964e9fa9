// The merchant credential for the Verification routes. No cache: revocation counts on the very next
// request. The lastUsedAt write happens after the response (waitUntil), off the request's path. The key
// names its account's shard (src/context/shard-routing.ts): the request's context moves there first.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { authenticateApiKey, hashApiKey, isApiKeyShaped, lastUsedIsStale, touchLastUsed } from "../domain/keys";
import { unauthorized } from "../errors";
import type { AppEnv } from "./app-env";
import { log } from "../lib/log";
import { shardOfApiKey } from "../context/shard-routing";
import { withMeta } from "./openapi-meta";

/**
 * Moves the request's context to the shard the presented key names, then authenticates the key there.
 * A value without a key's shape is refused first: nothing is hashed or remembered for it.
 */
export async function authenticateOnKeyShard(c: Context<AppEnv>, presented: string) {
  if (!isApiKeyShaped(presented)) return null;
  const keyHash = await hashApiKey(presented);
  c.set("ctx", c.var.ctx.onShard(await shardOfApiKey(c.var.ctx, presented, keyHash)));
  return authenticateApiKey(c.var.ctx, keyHash);
}

export const requireApiKey = withMeta(
  createMiddleware<AppEnv>(async (c, next) => {
    const presented = c.req.header("x-api-key");
    if (presented === undefined) throw unauthorized();
    const key = await authenticateOnKeyShard(c, presented);
    if (!key) throw unauthorized();
    c.set("apiKey", key);
    const now = Date.now();
    if (lastUsedIsStale(key, now)) {
      c.executionCtx.waitUntil(
        touchLastUsed(c.var.ctx, key.id, now).then(
          () => undefined,
          () => log("warn", "lastUsedAt not written", { keyId: key.id }),
        ),
      );
    }
    await next();
  }),
  { security: "apiKey" },
);
