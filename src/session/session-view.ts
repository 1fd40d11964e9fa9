// Views of a session's state, each typed once by its zod schema: the merchant's polled session (spec
// "Verification session, as returned by polling"; docs/api-contract.md §Sessions), which is also the `data` of every
// callback so the two can never disagree, and the end user's request.
import * as z from "../lib/lazy-zod";
import { SESSION_STATUSES } from "./session-status";
import { LOCALES } from "../db/schema";
import type { SessionState } from "./state-machine";
import { ASSURANCES, DENIAL_REASONS, HOLDER_BINDINGS, type Assurance, type DenialReason } from "./assurance";
import { acceptedAssuranceOf } from "./answer-policy";

const Metadata = z.record(z.string(), z.string());

export const PolledSession = z.object({
  session_id: z.string(),
  status: z.enum(SESSION_STATUSES),
  above_age_required: z.boolean(),
  assurance: z
    .nullable(z.enum(ASSURANCES))
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "What the answer rests on: KYC_VERIFIED (an identity document and face checked by the identity provider, then the verified account's approval or an anonymous age token issued to it) or DIGITAL_ID_VERIFIED (an issuer-signed credential from the person's wallet); null while unresolved, on expiry, and for a decline from the first screen."
          : "",
      ),
    ),
  receipt_id: z.nullable(z.string()),
  age_required: z.int(),
  expires_at: z.iso.datetime(),
  resolved_at: z.nullable(z.iso.datetime()),
  reference: z
    .nullable(z.string())
    .check(z.describe(OPENAPI_METADATA ? "The merchant's own reference from the open request, or null." : "")),
  metadata: z.nullable(Metadata).check(z.describe(OPENAPI_METADATA ? "The merchant's metadata from the open request, or null." : "")),
  livemode: z.boolean().check(z.describe(OPENAPI_METADATA ? "false for a session opened with a test key (svc_sk_test_…)." : "")),
  holder_binding: z
    .nullable(z.enum(HOLDER_BINDINGS))
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "How the answer was bound to the person: PASSKEY (a passkey assertion at the moment of approval), PASSWORD (the account's sign-in only), DEVICE_KEY (the wallet signed this session's request with the credential's device key) or ANONYMOUS_TOKEN (a double-blind approval with a blind-signed age token: no account took part); null while unresolved, for refusals, declines, expiry and test-mode answers."
          : "",
      ),
    ),
  denial_reason: z
    .nullable(z.enum(DENIAL_REASONS))
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "Why a DENIED session was denied: UNDER_AGE (a verified age or a credential says under age_required) or DECLINED (the person said no); null unless DENIED."
          : "",
      ),
    ),
  accepted_assurance: z
    .array(z.enum(ASSURANCES))
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "The ways the merchant accepted for this session (the open request's accepted_assurance, or every way offered)."
          : "",
      ),
    ),
  double_blind: z
    .boolean()
    .check(z.describe(OPENAPI_METADATA ? "Only an anonymous age token or a digital ID may approve this session." : "")),
  receipt: z
    .nullable(z.string())
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "Compact JWS (EdDSA) over the resolution, verifiable with GET /.well-known/jwks.json; null unless APPROVED or DENIED."
          : "",
      ),
    ),
});
export type PolledSession = z.infer<typeof PolledSession>;

export const SessionRequest = z.object({
  session_id: z.string(),
  age_required: z.int(),
  merchant_name: z.string(),
  status: z.enum(SESSION_STATUSES),
  expires_at: z.iso.datetime(),
  livemode: z
    .boolean()
    .check(z.describe(OPENAPI_METADATA ? "false: a test session, answered with a chosen outcome and no identity check." : "")),
  locale: z
    .nullable(z.enum(LOCALES))
    .check(z.describe(OPENAPI_METADATA ? "The language the merchant asked the pages to open in, or null." : "")),
  return_url: z
    .nullable(z.string())
    .check(z.describe(OPENAPI_METADATA ? "Where the result screen's button leads back to (with session_id appended), or null." : "")),
  require_passkey: z.boolean().check(z.describe(OPENAPI_METADATA ? "The merchant accepts only a passkey approval." : "")),
  accepted_assurance: z
    .array(z.enum(ASSURANCES))
    .check(z.describe(OPENAPI_METADATA ? "The ways this session may be answered: the page offers only these." : "")),
  double_blind: z
    .boolean()
    .check(
      z.describe(OPENAPI_METADATA ? "Only an anonymous age token or a digital ID may approve: the account's own approval is refused." : ""),
    ),
});
export type SessionRequest = z.infer<typeof SessionRequest>;

/** The request as the signed-in end user reads it: with whether their own verified age meets it. */
export const HolderSessionRequest = z.extend(SessionRequest, {
  meets_age_required: z
    .nullable(z.boolean())
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "Whether the signed-in account's verified date of birth meets age_required today, so that the page can tell a person under the age before they answer; null while the account has no verified identity. Only the account itself reads this, and the server still decides on complete."
          : "",
      ),
    ),
});
export type HolderSessionRequest = z.infer<typeof HolderSessionRequest>;

/** The nonce-gated first screen, no account needed (docs/api-contract.md §Preview): what is asked, and by whom. */
export const SessionPreview = z.object({
  merchant_name: z.string(),
  age_required: z.int(),
  status: z.enum(SESSION_STATUSES),
  expires_at: z.iso.datetime(),
  resolved_at: z
    .nullable(z.iso.datetime())
    .check(z.describe(OPENAPI_METADATA ? "When the link was answered or expired; null while PENDING" : "")),
  livemode: z.boolean(),
  return_url: z
    .nullable(z.string())
    .check(z.describe(OPENAPI_METADATA ? "Where the merchant asked the end user to be sent back; null when it gave none" : "")),
  locale: z
    .nullable(z.enum(LOCALES))
    .check(z.describe(OPENAPI_METADATA ? "The language the merchant asked the pages to open in; null when it gave none" : "")),
  accepted_assurance: z
    .array(z.enum(ASSURANCES))
    .check(z.describe(OPENAPI_METADATA ? "The ways this session may be answered: the first screen offers only these." : "")),
  double_blind: z
    .boolean()
    .check(z.describe(OPENAPI_METADATA ? "Only an anonymous age token or a digital ID may approve this session." : "")),
  require_passkey: z
    .boolean()
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "The merchant accepts only an approval bound to the person by a key on their device (a passkey, or a wallet's device signature). With double_blind, the digital ID is the only way that can succeed: the first screen offers it alone."
          : "",
      ),
    ),
});
export type SessionPreview = z.infer<typeof SessionPreview>;

export const previewView = (state: SessionState): SessionPreview => ({
  merchant_name: state.merchantName,
  age_required: state.ageRequired,
  status: state.status,
  expires_at: state.expiresAt,
  resolved_at: state.resolvedAt,
  livemode: state.livemode ?? true,
  return_url: state.returnUrl ?? null,
  locale: state.locale ?? null,
  accepted_assurance: acceptedAssuranceOf(state),
  double_blind: state.doubleBlind ?? false,
  require_passkey: state.requirePasskey ?? false,
});

/** A state resolved before 1.2.0 has no assurance stored: every answer then was an account's (KYC_VERIFIED). */
function assuranceOf(state: SessionState): Assurance | null {
  if (state.assurance !== undefined) return state.assurance;
  return state.status === "APPROVED" || (state.status === "DENIED" && !state.declinedWithoutAccount) ? "KYC_VERIFIED" : null;
}

/** Before 1.2.0 only a first-screen decline told its reason apart; a refusal and an under-age answer did not. */
function denialReasonOf(state: SessionState): DenialReason | null {
  if (state.status !== "DENIED") return null;
  if (state.denialReason !== undefined) return state.denialReason;
  return state.declinedWithoutAccount ? "DECLINED" : null;
}

export const polledView = (state: SessionState): PolledSession => ({
  session_id: state.id,
  status: state.status,
  above_age_required: state.status === "APPROVED",
  assurance: assuranceOf(state),
  receipt_id: state.receiptId,
  age_required: state.ageRequired,
  expires_at: state.expiresAt,
  resolved_at: state.resolvedAt,
  reference: state.reference ?? null,
  metadata: state.metadata ?? null,
  livemode: state.livemode ?? true,
  holder_binding: state.holderBinding ?? null,
  denial_reason: denialReasonOf(state),
  accepted_assurance: acceptedAssuranceOf(state),
  double_blind: state.doubleBlind ?? false,
  receipt: state.receipt ?? null,
});

export const requestView = (state: SessionState): SessionRequest => ({
  session_id: state.id,
  age_required: state.ageRequired,
  merchant_name: state.merchantName,
  status: state.status,
  expires_at: state.expiresAt,
  livemode: state.livemode ?? true,
  locale: state.locale ?? null,
  return_url: state.returnUrl ?? null,
  require_passkey: state.requirePasskey ?? false,
  accepted_assurance: acceptedAssuranceOf(state),
  double_blind: state.doubleBlind ?? false,
});
