// The merchant's view of a session (spec "Verification session, as returned by polling"; CONTRACT §5).
// It is also the `data` of every callback, so the two can never disagree.
import * as z from "zod";

export const SESSION_STATUSES = ["PENDING", "APPROVED", "DENIED", "EXPIRED"] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

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
