// The request shapes of the attestation routes under /api (docs/attestations.md), which share the passkey
// confirmation; each answer's shape is in its operation's file.
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
