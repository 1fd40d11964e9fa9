// Counting a declared limit (the catalogue: src/http/limits.ts): a Workers Rate Limiting binding, or the
// D1 per-account windows. Routes count where their behaviour needs it (before the body is read, after a
// 404 check, inside a domain function); what they count is named once, in the route's spec.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { countAccountUse } from "../domain/limits";
import { ApiError } from "../errors";
import { addressKey } from "../lib/address-key";
import type { AppEnv } from "./app-env";
import { isBindingLimit, type BindingLimit, type Limit } from "./limits";

/** Every limiter binding counts over 60-second windows (wrangler.toml), so that is the honest Retry-After. */
export const WINDOW_SECONDS = 60;

export const rateLimited = () => new ApiError("RATE_LIMITED", { headers: { "Retry-After": String(WINDOW_SECONDS) } });

/** The client's address as limits count it: IPv6 by its /64 (src/lib/address-key.ts). */
export const clientAddress = (c: Context) => addressKey(c.req.header("cf-connecting-ip") ?? "unknown");

/**
 * Counts one use of `limit` by `subject` (what the limit is keyed by: an address, an account id, …) and
 * refuses it with 429 RATE_LIMITED past the limit. A binding's key starts with the limit's name, so the
 * limits that share a binding keep their counters apart.
 */
export async function countUse(c: Context<AppEnv>, limit: Limit, subject: string): Promise<void> {
  // Shard 0 is the home shard (src/context/service-context.ts): it holds the counters no account owns.
  if (!isBindingLimit(limit)) return countAccountUse(limit.home ? c.var.ctx.onShard(0) : c.var.ctx, limit.accountWindows, subject);
  if (!(await withinLimit(c, limit, subject))) throw rateLimited();
}

/** Counts one use of a binding's limit; false past it (for a caller that answers otherwise than the envelope: a page). */
export async function withinLimit(c: Context<AppEnv>, limit: BindingLimit, subject: string): Promise<boolean> {
  const { success } = await c.env[limit.binding].limit({ key: `${limit.name}:${subject}` });
  return success;
}

/** Counts a limit keyed by the client address before anything else of the route runs. */
export const limitPerAddress = (limit: BindingLimit) =>
  createMiddleware<AppEnv>(async (c, next) => {
    await countUse(c, limit, clientAddress(c));
    await next();
  });

/**
 * As limitPerAddress, for the calls that come without `credential` (a header naming an account or a key):
 * those with it are counted by their account's own limits, so a shared address cannot lock a merchant or
 * a signed-in person out.
 */
export const limitPerAddressWithout = (credential: "authorization" | "x-api-key", limit: BindingLimit) =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (c.req.header(credential) === undefined) await countUse(c, limit, clientAddress(c));
    await next();
  });
