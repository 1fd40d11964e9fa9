// Allowed callback origins per key: when a key carries a list, a session it opens must name a
// callback_url on one of them, so a leaked API key cannot point callbacks at an arbitrary host.
import { and, eq } from "drizzle-orm";
import * as z from "../../lib/lazy-zod";
import { apiKeys } from "../../db/schema";
import { ApiError, notFound, validationFailed } from "../../errors";
import { isIdOf } from "../../lib/ids";
import { callbackUrlProblem } from "./callback-url";
import { toApiKeyRecord } from "../keys";
import type { ServiceContext } from "../../context/service-context";

export const MAX_ALLOWED_ORIGINS = 20;

export const UpdateKeyInput = z.object({
  allowedCallbackOrigins: z
    .nullable(z.array(z.string().check(z.maxLength(300))).check(z.maxLength(MAX_ALLOWED_ORIGINS)))
    .check(
      z.describe(
        OPENAPI_METADATA
          ? `Up to ${MAX_ALLOWED_ORIGINS} origins, scheme://host[:port] without a path (https; http://localhost or 127.0.0.1 in development only). null or [] removes the restriction.`
          : "",
      ),
    ),
});

/** scheme://authority with at most a trailing slash: no path, query or fragment. */
const ORIGIN_ONLY = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+\/?$/i;

/** The origin of `raw` as the browser writes it ("https://host[:port]", default port dropped), or the problem. */
function parseOrigin(raw: string, allowLocalHttp: boolean): { origin: string } | { problem: string } {
  const problem = callbackUrlProblem(raw, { allowLocalHttp });
  if (problem) return { problem };
  const url = new URL(raw);
  if (!ORIGIN_ONLY.test(raw) || url.pathname !== "/") {
    return { problem: "Give an origin only: scheme://host[:port], no path, query or fragment." };
  }
  return { origin: url.origin };
}

export async function updateAllowedOrigins(ctx: ServiceContext, userId: string, keyId: string, input: z.infer<typeof UpdateKeyInput>) {
  if (!isIdOf("key", keyId)) throw notFound("Key");
  const allowLocalHttp = !ctx.settings.production;
  const origins: string[] = [];
  const errors = [];
  for (const [index, raw] of (input.allowedCallbackOrigins ?? []).entries()) {
    const parsed = parseOrigin(raw, allowLocalHttp);
    if ("problem" in parsed) errors.push({ path: `allowedCallbackOrigins.${index}`, message: parsed.problem });
    else if (!origins.includes(parsed.origin)) origins.push(parsed.origin);
  }
  if (errors.length > 0) throw validationFailed(errors);
  const [row] = await ctx.db
    .update(apiKeys)
    .set({ allowedCallbackOrigins: origins.length > 0 ? origins : null })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId)))
    .returning();
  if (!row) throw notFound("Key");
  return toApiKeyRecord(row);
}

/** The open path's one check: a key with a list accepts only a callback_url on one of its origins. */
export function assertCallbackOriginAllowed(allowed: readonly string[] | null, callbackUrl: string): void {
  if (!allowed || allowed.length === 0) return;
  if (allowed.includes(new URL(callbackUrl).origin)) return;
  throw new ApiError("CALLBACK_ORIGIN_NOT_ALLOWED", {
    errors: [{ path: "callback_url", message: `Use a callback_url on one of this key's allowed origins: ${allowed.join(", ")}.` }],
  });
}
