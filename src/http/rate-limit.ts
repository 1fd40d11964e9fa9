// Workers Rate Limiting binding in front of the credential routes (CONTRACT §2).
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { ApiError } from "../errors";
import { addressKey } from "../lib/address-key";
import type { AppEnv } from "./app-env";

/** Both limiters count over 60-second windows (wrangler.toml), so that is the honest Retry-After. */
const WINDOW_SECONDS = 60;

export const rateLimited = () =>
  new ApiError("RATE_LIMITED", { headers: { "Retry-After": String(WINDOW_SECONDS) } });

/**
 * CALLBACK_LIMITER's limit per account and minute (wrangler.toml), shared by redelivery and test events:
 * each sends an outbound request for the caller, so neither can be turned into a request flood.
 */
export const CALLBACK_TOOL_LIMIT = 10;

/** The client's address as limits count it: IPv6 by its /64 (src/lib/address-key.ts). */
export const clientAddress = (c: Context) => addressKey(c.req.header("cf-connecting-ip") ?? "unknown");

export async function enforceLimit(limiter: RateLimit, key: string): Promise<void> {
  const { success } = await limiter.limit({ key });
  if (!success) throw rateLimited();
}

/** Limits a route per client address; `name` keeps the routes' counters apart. */
export const limitPerAddress = (name: string) =>
  createMiddleware<AppEnv>(async (c, next) => {
    await enforceLimit(c.env.ADDRESS_LIMITER, `${name}:${clientAddress(c)}`);
    await next();
  });
