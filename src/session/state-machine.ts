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
  /** Declined from the first screen, before any sign-in: no account and no identity check took part. */
  declinedWithoutAccount?: boolean;
};

export type SessionEvent =
  | { type: "complete"; at: string; consent: boolean; dateOfBirth: string; receiptId: string }
  /** "Not now" from the first screen: a refusal that needs no account (CONTRACT §12). */
  | { type: "decline"; at: string; receiptId: string }
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
  return { ...state, status: "EXPIRED", resolvedAt, aboveAgeRequired: false, receiptId: null };
}

export function transition(state: SessionState, event: SessionEvent): TransitionResult {
  if (state.status !== "PENDING") {
    return event.type !== "expire" ? { outcome: "not_pending", state, changed: false } : { outcome: "unchanged", state };
  }
  if (event.type === "expire") {
    return event.force || isDue(state, event.at) ? { outcome: "changed", state: expired(state, event.at) } : { outcome: "unchanged", state };
  }
  if (isDue(state, event.at)) return { outcome: "not_pending", state: expired(state, event.at), changed: true };
  if (event.type === "decline") {
    return {
      outcome: "changed",
      state: { ...state, status: "DENIED", aboveAgeRequired: false, resolvedAt: event.at, receiptId: event.receiptId, declinedWithoutAccount: true },
    };
  }
  const above = event.consent && fullYearsOn(event.dateOfBirth, event.at) >= state.ageRequired;
  return {
    outcome: "changed",
    state: { ...state, status: above ? "APPROVED" : "DENIED", aboveAgeRequired: above, resolvedAt: event.at, receiptId: event.receiptId },
  };
}
