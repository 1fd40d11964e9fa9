// The request and answer shapes of the attestation routes under /api (docs/attestations.md).
import * as z from "../../lib/lazy-zod";
import { AssertionCredential } from "../../domain/passkeys";

const confirmation = () =>
  z
    .optional(AssertionCredential)
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "Required when the account has a passkey: an assertion by one of them over the challenge from POST /api/users/me/passkeys/confirmation-options (without it: 403 PASSKEY_REQUIRED)."
          : "",
      ),
    );

export const CreateOfferInput = z.object({ confirmation: confirmation() });

export const CredentialOfferOutput = z.object({
  credential_offer: z
    .record(z.string(), z.unknown())
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "The OpenID4VCI credential offer object (credential_issuer, credential_configuration_ids [proof_of_age], the pre-authorized code grant with tx_code {length, input_mode})"
          : "",
      ),
    ),
  credential_offer_uri: z
    .string()
    .check(z.describe(OPENAPI_METADATA ? "openid-credential-offer://?credential_offer=… (the offer by value)" : "")),
  av_uri: z.string().check(z.describe(OPENAPI_METADATA ? "av://?credential_offer=… (the EU age-verification blueprint's link)" : "")),
  tx_code: z
    .string()
    .check(z.describe(OPENAPI_METADATA ? "The digits the person types in the wallet; shown, never sent with the offer" : "")),
  expires_at: z.string().check(z.describe(OPENAPI_METADATA ? "When the offer dies (5 minutes)" : "")),
});

export const ApproveAuthorizationInput = z.object({
  response_type: z.string(),
  scope: z.string(),
  client_id: z.string(),
  redirect_uri: z.string(),
  code_challenge: z.string(),
  code_challenge_method: z.string(),
  state: z.optional(z.string().check(z.maxLength(2048))),
  confirmation: confirmation(),
});

export const AuthorizationApproval = z.object({
  redirect_to: z.string().check(z.describe(OPENAPI_METADATA ? "The wallet's redirect_uri with code, state and iss" : "")),
});
