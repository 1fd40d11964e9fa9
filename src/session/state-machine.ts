// The verification session's rules, as a pure function: no storage, no clock, no I/O.
import { fullYearsOn } from "./age";
import type { SessionStatus } from "./session-status";

export type SessionState = {
  id: string;
  accountId: string;
  keyId: string;
  merchantName: string;
  ageRequired: number;
  callbackUrl: string;
  /** SHA-256 of the nonce: the nonce itself is never stored. */
  nonceHash: string;
  status: SessionStatus;
  createdAt: string;
  expiresAt: string;
  resolvedAt: string | null;
  aboveAgeRequired: boolean;
  receiptId: string | null;
  /** The merchant asked that only a passkey may approve (absent in states stored before 1.1.0). */
  requirePasskey?: boolean;
  /** How the answer was bound to the account holder: PASSKEY or PASSWORD for a consent, else null. */
  holderBinding?: HolderBinding | null;
};

export type HolderBinding = "PASSWORD" | "PASSKEY";

export type SessionEvent =
  | { type: "complete"; at: string; consent: boolean; dateOfBirth: string; receiptId: string; holderBinding?: HolderBinding }
  /** The alarm (or a poll) past expiry; `force` expires early, as account deletion does. */
  | { type: "expire"; at: string; force?: boolean };

export type TransitionResult =
  | { outcome: "changed"; state: SessionState }
  | { outcome: "unchanged"; state: SessionState }
  /** A completion that came too late or twice: refused, though it may have expired the session. */
  | { outcome: "not_pending"; state: SessionState; changed: boolean };

const isDue = (state: SessionState, at: string) => Date.parse(at) >= Date.parse(state.expiresAt);

function expired(state: SessionState, at: string): SessionState {
  const resolvedAt = isDue(state, at) ? state.expiresAt : at;
  return { ...state, status: "EXPIRED", resolvedAt, aboveAgeRequired: false, receiptId: null, holderBinding: null };
}

export function transition(state: SessionState, event: SessionEvent): TransitionResult {
  if (state.status !== "PENDING") {
    return event.type === "complete" ? { outcome: "not_pending", state, changed: false } : { outcome: "unchanged", state };
  }
  if (event.type === "expire") {
    return event.force || isDue(state, event.at) ? { outcome: "changed", state: expired(state, event.at) } : { outcome: "unchanged", state };
  }
  if (isDue(state, event.at)) return { outcome: "not_pending", state: expired(state, event.at), changed: true };
  const above = event.consent && fullYearsOn(event.dateOfBirth, event.at) >= state.ageRequired;
  return {
    outcome: "changed",
    state: { ...state, status: above ? "APPROVED" : "DENIED", aboveAgeRequired: above, resolvedAt: event.at, receiptId: event.receiptId, holderBinding: event.consent ? (event.holderBinding ?? "PASSWORD") : null },
  };
}
