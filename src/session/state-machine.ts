// The verification session's rules, as a pure function: no storage, no clock, no I/O.
import { fullYearsOn } from "./age";
import type { Locale } from "../db/schema";
import type { SessionStatus } from "./session-status";
import type { Assurance, DenialReason, HolderBindingName } from "./assurance";
import { acceptedAssuranceOf } from "./answer-policy";

/** How the end user who answered was bound to the answer (docs/api-contract.md §Sessions, §Session policy); null when nobody was. */
export type HolderBinding = HolderBindingName | null;
/** An account's own approval: its sign-in alone, or a passkey assertion as well. */
export type AccountBinding = "PASSWORD" | "PASSKEY";
/** The outcomes a test session can be given without an identity check (test mode, docs/api-contract.md §Test mode). */
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
  /** Added in 1.2.0 (absent before: every way the deployment offered then, KYC_VERIFIED alone). */
  acceptedAssurance?: Assurance[];
  /** Only an anonymous age token or a digital ID may approve (docs/api-contract.md §Session policy). */
  doubleBlind?: boolean;
  /** Written with every resolution from 1.2.0 on; absent in states resolved before (session-view.ts infers them). */
  assurance?: Assurance | null;
  denialReason?: DenialReason | null;
  /** The D1 shard of the merchant's account, where the session's log lives (docs/operations.md); absent before sharding: shard 0. */
  shard?: number;
};

export type SessionEvent =
  | { type: "complete"; at: string; consent: boolean; dateOfBirth: string; receiptId: string; holderBinding?: AccountBinding }
  /**
   * An answer that carries its own proof and no account (docs/api-contract.md §Digital ID, §Age tokens): a wallet credential's age element
   * (DIGITAL_ID_VERIFIED, DEVICE_KEY; `above` false is UNDER_AGE) or an anonymous age token
   * (KYC_VERIFIED, ANONYMOUS_TOKEN; always above: a token below the age is refused before this).
   */
  | { type: "proof"; at: string; receiptId: string; above: boolean; assurance: Assurance; holderBinding: "DEVICE_KEY" | "ANONYMOUS_TOKEN" }
  /** Test mode: the tester picks the outcome; never applies to a live session. */
  | { type: "test_answer"; at: string; outcome: TestOutcome; receiptId: string }
  /** "Not now" from the first screen: a refusal that needs no account (docs/api-contract.md §Answering). */
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
  return {
    ...state,
    status: "EXPIRED",
    resolvedAt,
    aboveAgeRequired: false,
    receiptId: null,
    holderBinding: null,
    receipt: null,
    assurance: null,
    denialReason: null,
  };
}

/** What an answer decides; the rest of a resolution (status, time, receipt id) follows from it. */
type Answer = { above: boolean; holderBinding: HolderBinding; assurance: Assurance | null; denialReason: DenialReason | null };

function resolved(state: SessionState, event: { at: string; receiptId: string }, answer: Answer): TransitionResult {
  const { above, ...rest } = answer;
  return {
    outcome: "changed",
    state: {
      ...state,
      ...rest,
      status: above ? "APPROVED" : "DENIED",
      aboveAgeRequired: above,
      resolvedAt: event.at,
      receiptId: event.receiptId,
    },
  };
}

export function transition(state: SessionState, event: SessionEvent): TransitionResult {
  if (state.status !== "PENDING") {
    return event.type === "expire" ? { outcome: "unchanged", state } : { outcome: "not_pending", state, changed: false };
  }
  if (event.type === "expire") {
    return event.force || isDue(state, event.at)
      ? { outcome: "changed", state: expired(state, event.at) }
      : { outcome: "unchanged", state };
  }
  if (isDue(state, event.at)) return { outcome: "not_pending", state: expired(state, event.at), changed: true };
  if (event.type === "decline") {
    const declined = resolved(state, event, {
      above: false,
      holderBinding: null,
      denialReason: "DECLINED",
      assurance: null, // a decline from the first screen checked no identity: it asserts nothing about the person
    });
    return { ...declined, state: { ...declined.state, declinedWithoutAccount: true } };
  }
  if (event.type === "proof") {
    const { above, holderBinding, assurance } = event;
    return resolved(state, event, { above, holderBinding, assurance, denialReason: above ? null : "UNDER_AGE" });
  }
  if (event.type === "test_answer") {
    if (state.livemode !== false) return { outcome: "not_pending", state, changed: false };
    if (event.outcome === "EXPIRED") return { outcome: "changed", state: expired(state, event.at) };
    const above = event.outcome === "APPROVED";
    // Test mode answers carry the reason their outcome implies (docs/api-contract.md §Test mode).
    const denialReason = above ? null : event.outcome === "DENIED_UNDER_AGE" ? "UNDER_AGE" : "DECLINED";
    // The assurance of the first way the session accepts: a test answer stands for an answer the live
    // policy allows (a digital-ID-only session reads DIGITAL_ID_VERIFIED).
    return resolved(state, event, { above, holderBinding: null, assurance: acceptedAssuranceOf(state)[0]!, denialReason });
  }
  const above = event.consent && fullYearsOn(event.dateOfBirth, event.at) >= state.ageRequired;
  return resolved(state, event, {
    above,
    // A refusal proves nothing about the holder; an answer with consent was made by the signed-in holder.
    holderBinding: event.consent ? (event.holderBinding ?? "PASSWORD") : null,
    assurance: "KYC_VERIFIED",
    denialReason: above ? null : event.consent ? "UNDER_AGE" : "DECLINED",
  });
}
