// Reading a session: the merchant's poll, the first screen's preview (the nonce proves the link), and
// the signed-in end user's view of what it asks.
import * as z from "../../lib/lazy-zod";
import type { ServiceContext } from "../../context/service-context";
import { nowIso } from "../../lib/time";
import { fullYearsOn } from "../../session/age";
import type { HolderSessionRequest, SessionRequest } from "../../session/session-view";
import { sessionStub } from "../../session/session-stub";
import { checkedId, unwrap } from "./session-calls";

export const NonceQuery = z.object({
  nonce: z
    .optional(z.string().check(z.minLength(1), z.maxLength(128)))
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "The session's nonce, unless sent in the X-Session-Nonce header (preferred: it keeps the nonce out of URLs)."
          : "",
      ),
    ),
});

export const pollSession = async (ctx: ServiceContext, accountId: string, sessionId: string) =>
  unwrap(await sessionStub(ctx, checkedId(sessionId)).poll(accountId));

/** The first screen's read (docs/api-contract.md §Preview): the nonce proves the link, no account is involved. */
export const previewSession = async (ctx: ServiceContext, sessionId: string, nonce: string) =>
  unwrap(await sessionStub(ctx, checkedId(sessionId)).preview(nonce));

/** The request for the signed-in end user, with whether their verified date of birth meets its age. */
export async function readSessionRequest(
  ctx: ServiceContext,
  sessionId: string,
  nonce: string,
  verifiedDob: string | null = null,
): Promise<HolderSessionRequest> {
  return forHolder(unwrap(await sessionStub(ctx, checkedId(sessionId)).request(nonce)), verifiedDob);
}

/** A request already read, with whether the verified date of birth meets its age (null: not verified). */
export function forHolder(request: SessionRequest, verifiedDob: string | null): HolderSessionRequest {
  const meets = verifiedDob === null ? null : fullYearsOn(verifiedDob, nowIso()) >= request.age_required;
  return { ...request, meets_age_required: meets };
}

/**
 * The session the nonce opens, or null (an unknown session, a wrong nonce): read with no account, so
 * that a route can refuse an account on a double-blind session before it reads anything of one.
 */
export async function sessionOpenedBy(ctx: ServiceContext, sessionId: string, nonce: string): Promise<SessionRequest | null> {
  const read = await sessionStub(ctx, checkedId(sessionId)).request(nonce);
  return read.ok ? read.value : null;
}
