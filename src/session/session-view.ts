// Views of a session's state, each typed once by its zod schema: the merchant's polled session (spec
// "Verification session, as returned by polling"; CONTRACT §5), which is also the `data` of every
// callback so the two can never disagree, and the end user's request.
import * as z from "zod";
import { SESSION_STATUSES } from "./session-status";
import type { SessionState } from "./state-machine";

export const PolledSession = z.object({
  session_id: z.string(),
  status: z.enum(SESSION_STATUSES),
  above_age_required: z.boolean(),
  assurance: z.enum(["KYC_VERIFIED"]).nullable(),
  receipt_id: z.string().nullable(),
  age_required: z.int(),
  expires_at: z.iso.datetime(),
  resolved_at: z.iso.datetime().nullable(),
});
export type PolledSession = z.infer<typeof PolledSession>;

export const SessionRequest = z.object({
  session_id: z.string(),
  age_required: z.int(),
  merchant_name: z.string(),
  status: z.enum(SESSION_STATUSES),
  expires_at: z.iso.datetime(),
});
export type SessionRequest = z.infer<typeof SessionRequest>;

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
});

export const requestView = (state: SessionState): SessionRequest => ({
  session_id: state.id,
  age_required: state.ageRequired,
  merchant_name: state.merchantName,
  status: state.status,
  expires_at: state.expiresAt,
});
