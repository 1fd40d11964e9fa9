// The verification session's rules, as a pure function: no storage, no clock, no I/O.
import { fullYearsOn } from "./age";
import type { Locale } from "../db/schema";
import type { SessionStatus } from "./session-status";

/** How the end user who answered was bound to the verified identity (CONTRACT §12); #20 adds PASSKEY. */
export type HolderBinding = "PASSWORD" | "PASSKEY" | null;
/** The outcomes a test session can be given without an identity check (test mode, CONTRACT §12). */
export const TEST_OUTCOMES = ["APPROVED", "DENIED_UNDER_AGE", "DENIED_REFUSED", "EXPIRED"] as const;
export type TestOutcome = (typeof TEST_OUTCOMES)[number];

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
  /** Added in 1.1.0: a state stored before reads these as absent (see session-view.ts for the defaults). */
  livemode?: boolean;
  returnUrl?: string | null;
  reference?: string | null;
  metadata?: Record<string, string> | null;
  locale?: Locale | null;
  holderBinding?: HolderBinding;
  /** The compact JWS over the resolution (src/session/receipts.ts), signed by the object when it resolves. */
  receipt?: string | null;
  /** The merchant asked that only a passkey may approve (absent in states stored before 1.1.0). */
  requirePasskey?: boolean;
  /** Declined from the first screen, before any sign-in: no account and no identity check took part. */
  declinedWithoutAccount?: boolean;
};

export type SessionEvent =
  | { type: "complete"; at: string; consent: boolean; dateOfBirth: string; receiptId: string; holderBinding?: NonNullable<HolderBinding> }
  /** Test mode: the tester picks the outcome; never applies to a live session. */
  | { type: "test_answer"; at: string; outcome: TestOutcome; receiptId: string }
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
  return { ...state, status: "EXPIRED", resolvedAt, aboveAgeRequired: false, receiptId: null, holderBinding: null, receipt: null };
}

export function transition(state: SessionState, event: SessionEvent): TransitionResult {
  if (state.status !== "PENDING") {
    return event.type === "expire" ? { outcome: "unchanged", state } : { outcome: "not_pending", state, changed: false };
  }
  if (event.type === "expire") {
    return event.force || isDue(state, event.at) ? { outcome: "changed", state: expired(state, event.at) } : { outcome: "unchanged", state };
  }
  if (isDue(state, event.at)) return { outcome: "not_pending", state: expired(state, event.at), changed: true };
  if (event.type === "decline") {
    return {
      outcome: "changed",
      state: { ...state, status: "DENIED", aboveAgeRequired: false, resolvedAt: event.at, receiptId: event.receiptId, holderBinding: null, declinedWithoutAccount: true },
    };
  }
  if (event.type === "test_answer") {
    if (state.livemode !== false) return { outcome: "not_pending", state, changed: false };
    if (event.outcome === "EXPIRED") return { outcome: "changed", state: expired(state, event.at) };
    const above = event.outcome === "APPROVED";
    return {
      outcome: "changed",
      state: { ...state, status: above ? "APPROVED" : "DENIED", aboveAgeRequired: above, resolvedAt: event.at, receiptId: event.receiptId, holderBinding: null },
    };
  }
  const above = event.consent && fullYearsOn(event.dateOfBirth, event.at) >= state.ageRequired;
  return {
    outcome: "changed",
    state: {
      ...state,
      status: above ? "APPROVED" : "DENIED",
      aboveAgeRequired: above,
      resolvedAt: event.at,
      receiptId: event.receiptId,
      // A refusal proves nothing about the holder; an answer with consent was made by the signed-in holder.
      holderBinding: event.consent ? (event.holderBinding ?? "PASSWORD") : null,
    },
  };
}
