// POST /token (RFC 6749 §3.2; OpenID4VCI 1.0 §6; docs/attestations.md): a grant for an access token that
// asks for one batch at the credential endpoint. The pre-authorized code needs its transaction code
// (grants.ts counts wrong ones); the authorization code needs the PKCE verifier of its challenge and the
// redirect_uri it was issued for. Either grant is spent by the exchange, right or wrong: a code is tried
// once. Errors are RFC 6749 §5.2 `invalid_request` / `invalid_grant`.
import type { ServiceContext } from "../../context/service-context";
import { createGrant, GRANT_LIFETIME_SECONDS, redeemOffer, spendGrant } from "./grants";
import { verifierMatches } from "./authorization-code";
import { PRE_AUTHORIZED_GRANT, PROOF_OF_AGE_CONFIGURATION } from "./metadata";
import { oauthError } from "./oauth-error";

export type TokenAnswer = { access_token: string; token_type: "Bearer"; expires_in: number };

const MAX_PARAMETER = 2048;

async function grantedBy(ctx: ServiceContext, form: Record<string, string | undefined>, now: number): Promise<void> {
  if (form.scope !== undefined && form.scope !== PROOF_OF_AGE_CONFIGURATION)
    throw oauthError("invalid_request", `scope must be ${PROOF_OF_AGE_CONFIGURATION}.`);
  if (form.grant_type === PRE_AUTHORIZED_GRANT) {
    const code = form["pre-authorized_code"];
    if (!code) throw oauthError("invalid_request", "pre-authorized_code is required.");
    if (!form.tx_code) throw oauthError("invalid_request", "tx_code is required.");
    if (!(await redeemOffer(ctx, code, form.tx_code, now)))
      throw oauthError("invalid_grant", "The offer is unknown, expired, used, or the transaction code is wrong.");
    return;
  }
  if (form.grant_type === "authorization_code") {
    if (!form.code || !form.code_verifier || !form.redirect_uri)
      throw oauthError("invalid_request", "code, code_verifier and redirect_uri are required.");
    const row = await spendGrant(ctx, "code", form.code, now);
    if (!row) throw oauthError("invalid_grant", "The code is unknown, expired or used.");
    if (row.redirectUri !== form.redirect_uri) throw oauthError("invalid_grant", "redirect_uri is not the one the code was issued for.");
    if (!row.codeChallenge || !(await verifierMatches(form.code_verifier, row.codeChallenge)))
      throw oauthError("invalid_grant", "code_verifier does not match the code challenge.");
    return;
  }
  throw oauthError(
    form.grant_type ? "unsupported_grant_type" : "invalid_request",
    "grant_type must be authorization_code or the pre-authorized code.",
  );
}

export async function exchangeGrant(ctx: ServiceContext, form: Record<string, string | undefined>, now: number): Promise<TokenAnswer> {
  for (const value of Object.values(form))
    if (value !== undefined && value.length > MAX_PARAMETER) throw oauthError("invalid_request", "A parameter is too long.");
  await grantedBy(ctx, form, now);
  const accessToken = await createGrant(ctx, "token", now);
  return { access_token: accessToken, token_type: "Bearer", expires_in: GRANT_LIFETIME_SECONDS.token };
}
