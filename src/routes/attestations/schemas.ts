// The request shapes of the attestation routes under /api (docs/attestations.md), which share the passkey
// confirmation; each answer's shape is in its operation's file.
import * as z from "../../lib/lazy-zod";
import { passkeyConfirmation } from "../passkeys/passkey-confirmation";

export const CreateOfferInput = z.object({ confirmation: passkeyConfirmation() });

export const ApproveAuthorizationInput = z.object({
  response_type: z.string(),
  scope: z.string(),
  client_id: z.string(),
  redirect_uri: z.string(),
  code_challenge: z.string(),
  code_challenge_method: z.string(),
  state: z.optional(z.string().check(z.maxLength(2048))),
  confirmation: passkeyConfirmation(),
});
