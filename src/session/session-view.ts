// Views of a session's state, each typed once by its zod schema: the merchant's polled session (spec
// "Verification session, as returned by polling"; CONTRACT §5), which is also the `data` of every
// callback so the two can never disagree, and the end user's request.
import * as z from "zod";
import { SESSION_STATUSES } from "./session-status";
import { LOCALES } from "../db/schema";
import type { SessionState } from "./state-machine";

const Metadata = z.record(z.string(), z.string());

export const PolledSession = z.object({
  session_id: z.string(),
  status: z.enum(SESSION_STATUSES),
  above_age_required: z.boolean(),
  assurance: z.enum(["KYC_VERIFIED"]).nullable(),
  receipt_id: z.string().nullable(),
  age_required: z.int(),
  expires_at: z.iso.datetime(),
  resolved_at: z.iso.datetime().nullable(),
  reference: z.string().nullable().describe("The merchant's own reference from the open request, or null."),
  metadata: Metadata.nullable().describe("The merchant's metadata from the open request, or null."),
  livemode: z.boolean().describe("false for a session opened with a test key (svc_sk_test_…)."),
  holder_binding: z
    .enum(["PASSWORD", "PASSKEY"])
    .nullable()
    .describe("How the answer was bound to the verified person: PASSKEY (a passkey assertion at the moment of approval) or PASSWORD (the account's sign-in only); null while unresolved, for refusals, declines, expiry and test-mode answers."),
  receipt: z
    .string()
    .nullable()
    .describe("Compact JWS (EdDSA) over the resolution, verifiable with GET /.well-known/jwks.json; null unless APPROVED or DENIED."),
});
export type PolledSession = z.infer<typeof PolledSession>;

export const SessionRequest = z.object({
  session_id: z.string(),
  age_required: z.int(),
  merchant_name: z.string(),
  status: z.enum(SESSION_STATUSES),
  expires_at: z.iso.datetime(),
  livemode: z.boolean().describe("false: a test session, answered with a chosen outcome and no identity check."),
  locale: z.enum(LOCALES).nullable().describe("The language the merchant asked the pages to open in, or null."),
  return_url: z.string().nullable().describe("Where the result screen's button leads back to (with session_id appended), or null."),
  require_passkey: z.boolean().describe("The merchant accepts only a passkey approval."),
});
export type SessionRequest = z.infer<typeof SessionRequest>;

/** The request as the signed-in end user reads it: with whether their own verified age meets it. */
export const HolderSessionRequest = SessionRequest.extend({
  meets_age_required: z
    .boolean()
    .nullable()
    .describe(
      "Whether the signed-in account's verified date of birth meets age_required today, so that the page can tell a person under the age before they answer; null while the account has no verified identity. Only the account itself reads this, and the server still decides on complete.",
    ),
});
export type HolderSessionRequest = z.infer<typeof HolderSessionRequest>;

/** The nonce-gated first screen, no account needed (CONTRACT §12 "preview"): what is asked, and by whom. */
export const SessionPreview = z.object({
  merchant_name: z.string(),
  age_required: z.int(),
  status: z.enum(SESSION_STATUSES),
  expires_at: z.iso.datetime(),
  resolved_at: z.iso.datetime().nullable().describe("When the link was answered or expired; null while PENDING"),
  livemode: z.boolean(),
  return_url: z.string().nullable().describe("Where the merchant asked the end user to be sent back; null when it gave none"),
  locale: z.enum(LOCALES).nullable().describe("The language the merchant asked the pages to open in; null when it gave none"),
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
});

export const polledView = (state: SessionState): PolledSession => ({
  session_id: state.id,
  status: state.status,
  above_age_required: state.status === "APPROVED",
  // A decline from the first screen checked no identity: it asserts nothing about the person.
  assurance: state.status === "APPROVED" || (state.status === "DENIED" && !state.declinedWithoutAccount) ? "KYC_VERIFIED" : null,
  receipt_id: state.receiptId,
  age_required: state.ageRequired,
  expires_at: state.expiresAt,
  resolved_at: state.resolvedAt,
  reference: state.reference ?? null,
  metadata: state.metadata ?? null,
  livemode: state.livemode ?? true,
  holder_binding: state.holderBinding ?? null,
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
});
