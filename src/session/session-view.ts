// Views of a session's state: the merchant's polled session and the end user's request.
import type { PolledSession } from "./polled-session";
import type { SessionState } from "./state-machine";

export const polledView = (state: SessionState): PolledSession => ({
  session_id: state.id,
  status: state.status,
  above_age_required: state.status === "APPROVED",
  assurance: state.status === "APPROVED" || state.status === "DENIED" ? "KYC_VERIFIED" : null,
  receipt_id: state.receiptId,
  age_required: state.ageRequired,
  expires_at: state.expiresAt,
  resolved_at: state.resolvedAt,
});

export type SessionRequestView = {
  session_id: string;
  age_required: number;
  merchant_name: string;
  status: PolledSession["status"];
  expires_at: string;
};

export const requestView = (state: SessionState): SessionRequestView => ({
  session_id: state.id,
  age_required: state.ageRequired,
  merchant_name: state.merchantName,
  status: state.status,
  expires_at: state.expiresAt,
});
