// Who may be issued a batch of proof-of-age attestations (docs/attestations.md), decided when an offer or
// an authorization code is made, in this order: a deployment that issues (else 404), an account whose
// identity is verified (403 KYC_REQUIRED) and whose verified date of birth makes it 18 today (403
// ATTESTATION_NOT_ALLOWED), a fresh passkey assertion when it has a passkey (403 PASSKEY_REQUIRED), then
// the day's count of batches raised (429 past ATTESTATION_BATCHES_PER_DAY). The grant made afterwards
// names no account: this count is the account's only trace of issuance.
import type { ServiceContext } from "../../context/service-context";
import { ApiError, notFound } from "../../errors";
import { fullYearsOn } from "../../session/age";
import { countAccountUse } from "../limits";
import { attestationSigner } from "./signer";

/** What the route read of the account, in one query (accountWithVerifiedDob). */
export type AttestationHolder = { userId: string; verifiedDateOfBirth: string | null; hasPasskey: boolean };

export const ATTESTATION_MIN_AGE = 18;

/**
 * Refuses or counts one batch for the holder. `confirmHolder` verifies the request's passkey assertion
 * (the passkey feature's, handed in by the route); `asserted` says whether the request carries one.
 */
export async function authorizeBatch(
  ctx: ServiceContext,
  holder: AttestationHolder,
  asserted: boolean,
  confirmHolder: () => Promise<void>,
  now: number,
): Promise<void> {
  if (!(await attestationSigner(ctx.settings))) throw notFound("Route");
  if (holder.verifiedDateOfBirth === null)
    throw new ApiError("KYC_REQUIRED", { message: "Verify your identity before asking for a proof of age." });
  if (fullYearsOn(holder.verifiedDateOfBirth, new Date(now).toISOString()) < ATTESTATION_MIN_AGE)
    throw new ApiError("ATTESTATION_NOT_ALLOWED");
  if (holder.hasPasskey) {
    if (!asserted) throw new ApiError("PASSKEY_REQUIRED", { message: "Adding a proof of age to a wallet needs your passkey." });
    await confirmHolder();
  }
  await countAccountUse(ctx, "attestationBatchesPerAccount", holder.userId, now);
}
