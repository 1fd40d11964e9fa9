// The anonymous answer to a session (docs/api-contract.md §Age tokens): POST …/complete with an age token and no
// Authorization. The token is checked here (this service's challenge, a published key, the signature);
// the session's Durable Object then decides and spends it in one serialized section
// (VerificationSessionObject.redeemAgeToken). Without a token, the 401 carries the Privacy Pass
// challenge (RFC 9577 §2.1) so a client knows which token to present.
import type { ServiceContext } from "../../context/service-context";
import { ApiError, unauthorized } from "../../errors";
import { sessionStub } from "../../session/session-stub";
import { ageTokenChallenge, deploymentTokenKeys, verifyAgeToken, wwwAuthenticateValue } from "../age-tokens";
import { checkedId, unwrap } from "./session-calls";

/** Approves the session with the token, or refuses it (422, 403, 404, 409) leaving the session PENDING and the token unspent. */
export async function redeemAgeToken(ctx: ServiceContext, sessionId: string, input: { nonce: string; ageToken: string }) {
  const id = checkedId(sessionId);
  const keys = await deploymentTokenKeys(ctx.settings);
  // Where no tokens are offered, no token is one this service issued.
  if (!keys) throw new ApiError("AGE_TOKEN_INVALID");
  // The threshold is checked against the session's age_required inside its object, with the rest.
  const verified = await verifyAgeToken(input.ageToken, {
    keys,
    expectedChallenge: ageTokenChallenge(ctx.settings.appUrl),
    ageRequired: 0,
  });
  return unwrap(await sessionStub(ctx, id).redeemAgeToken({ nonce: input.nonce, ageOver: verified.ageOver, spent: verified.spent }));
}

/**
 * The 401 of an anonymous complete without a token: with `WWW-Authenticate: PrivateToken …` for the
 * current keys that meet the session's age_required, when the nonce opens a session that tokens can
 * approve and tokens are offered; a plain 401 otherwise (nothing said about a session the caller cannot name).
 */
export async function anonymousWithoutToken(ctx: ServiceContext, sessionId: string, nonce: string): Promise<ApiError> {
  const keys = await deploymentTokenKeys(ctx.settings);
  if (!keys) return unauthorized();
  const id = checkedId(sessionId);
  const session = await sessionStub(ctx, id).request(nonce);
  // A session that requires a passkey takes no token (docs/passkeys.md): no challenge invites one.
  if (!session.ok || session.value.require_passkey) return unauthorized();
  const challenge = wwwAuthenticateValue(ageTokenChallenge(ctx.settings.appUrl), keys, session.value.age_required);
  if (!challenge) return unauthorized();
  return new ApiError("UNAUTHORIZED", {
    message: "Sign in, or present an anonymous age token (age_token).",
    headers: { "WWW-Authenticate": challenge },
  });
}
