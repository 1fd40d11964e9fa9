// POST /api/age-tokens for one signed-in account (docs/api-contract.md §Age tokens), in the contract's order: a threshold
// this deployment offers (else 422), the account verified and of that age (403 KYC_REQUIRED, 403
// AGE_TOKEN_NOT_ALLOWED), a fresh passkey assertion when it has a passkey (403 PASSKEY_REQUIRED), the
// requests well formed (422), then the day's count raised by the number of tokens (429 past it), and
// only then the signatures; which tokens were issued is never recorded.
import type { ServiceContext } from "../../context/service-context";
import { ApiError, notFound } from "../../errors";
import { deploymentTokenKeys } from "./deployment-keys";
import { checkTokenRequests, signRequests } from "./issuance";
import { countIssuedTokens } from "./issuance-count";
import { issuanceRefusal, type IssuanceAsk } from "./issuance-eligibility";
import { currentKeyFor, thresholdsOffered } from "./token-keys";

/** What the route read of the account, in one query (accountWithVerifiedDob). */
export type TokenHolder = { userId: string; verifiedDateOfBirth: string | null; hasPasskey: boolean };

export type IssueRequest = { age_over: number; token_requests: string[]; confirmation?: unknown };

/**
 * `confirmHolder` verifies the request's passkey assertion for the account (the passkey feature's
 * confirmation, handed in by the route: this feature sits below passkeys); called only when the account
 * has a passkey and the request carries an assertion.
 */
export async function issueAgeTokensTo(
  ctx: ServiceContext,
  holder: TokenHolder,
  input: IssueRequest,
  confirmHolder: () => Promise<void>,
  now = new Date(),
): Promise<string[]> {
  const keys = await deploymentTokenKeys(ctx.settings);
  // A deployment without token keys has no issuer: the route does not exist there.
  if (!keys) throw notFound("Route");
  if (!currentKeyFor(keys, input.age_over)) {
    throw new ApiError("VALIDATION_FAILED", {
      errors: [{ path: "age_over", message: `No age tokens for this threshold; offered: ${thresholdsOffered(keys).join(", ")}.` }],
    });
  }
  const ask: IssuanceAsk = {
    verifiedDateOfBirth: holder.verifiedDateOfBirth,
    hasPasskey: holder.hasPasskey,
    passkeyAsserted: input.confirmation !== undefined,
    issuedToday: 0,
    ageOver: input.age_over,
    count: input.token_requests.length,
    dailyLimit: Number.POSITIVE_INFINITY,
    now,
  };
  const refusal = issuanceRefusal(ask);
  if (refusal) throw refusal;
  if (holder.hasPasskey) await confirmHolder();
  // Malformed requests are refused before anything is counted; the count comes before any signature,
  // so a request over the day's limit costs no private-key operation (docs/double-blind.md).
  const checked = checkTokenRequests(keys, input.age_over, input.token_requests);
  const over = await countIssuedTokens(ctx, holder.userId, input.token_requests.length, now.getTime());
  if (over)
    throw (
      issuanceRefusal({ ...ask, passkeyAsserted: true, issuedToday: over.refusedAt, dailyLimit: over.limit }) ??
      new ApiError("RATE_LIMITED")
    );
  return signRequests(checked);
}
