// A credential offer with a pre-authorized code (OpenID4VCI 1.0 §4.1; docs/attestations.md), made from
// the person's own signed-in page once batch-authorization.ts has said yes and counted the batch: the
// offer object, its two link forms (the EU blueprint's av:// and the standard openid-credential-offer://,
// by value: the service keeps no offer document to fetch) and the transaction code the person types
// in their wallet, so that a photographed QR code alone issues nothing. It lives five minutes.
import type { ServiceContext } from "../../context/service-context";
import { randomBytes } from "../../lib/crypto";
import { createGrant, GRANT_LIFETIME_SECONDS } from "./grants";
import { PRE_AUTHORIZED_GRANT, PROOF_OF_AGE_CONFIGURATION } from "./metadata";

export const TX_CODE_LENGTH = 6;

/** Six decimal digits, uniform (rejection sampling: no digit more likely than another). */
function newTxCode(): string {
  let digits = "";
  while (digits.length < TX_CODE_LENGTH) {
    for (const byte of randomBytes(TX_CODE_LENGTH)) if (byte < 250 && digits.length < TX_CODE_LENGTH) digits += String(byte % 10);
  }
  return digits;
}

export type CredentialOfferAnswer = {
  credential_offer: Record<string, unknown>;
  credential_offer_uri: string;
  av_uri: string;
  tx_code: string;
  expires_at: string;
};

export async function createCredentialOffer(ctx: ServiceContext, now: number): Promise<CredentialOfferAnswer> {
  const txCode = newTxCode();
  const preAuthorizedCode = await createGrant(ctx, "offer", now, { txCode });
  const credentialOffer = {
    credential_issuer: ctx.settings.appUrl,
    credential_configuration_ids: [PROOF_OF_AGE_CONFIGURATION],
    grants: {
      [PRE_AUTHORIZED_GRANT]: {
        "pre-authorized_code": preAuthorizedCode,
        tx_code: { length: TX_CODE_LENGTH, input_mode: "numeric", description: "The code shown next to the QR code on your account page" },
      },
    },
  };
  const query = `?credential_offer=${encodeURIComponent(JSON.stringify(credentialOffer))}`;
  return {
    credential_offer: credentialOffer,
    credential_offer_uri: `openid-credential-offer://${query}`,
    av_uri: `av://${query}`,
    tx_code: txCode,
    expires_at: new Date(now + GRANT_LIFETIME_SECONDS.offer * 1000).toISOString(),
  };
}
