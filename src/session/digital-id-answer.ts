// The session's side of a digital ID (docs/api-contract.md §Digital ID), beside its Durable Object: where the pending request
// and the failure count live in the object's storage, the deployment's trust anchors (parsed once per
// isolate), the origin a wallet's answer must be bound to, and how a refused answer is told apart from
// an answer that verified. Nothing of a credential passes through here: only the verifier's outcome.
import type { Settings } from "../config/settings";
import { parseTrustAnchors } from "../digital-id";
import { ApiError, type FieldError } from "../errors";
import { perObject } from "../lib/per-object";

/** Storage keys: the latest request's private half (only it can be answered), and the failed answers so far. */
export const DIGITAL_ID_REQUEST_KEY = "digitalIdRequest";
export const DIGITAL_ID_FAILURES_KEY = "digitalIdFailures";

/** The refusal of an answer when no request is open (never asked, replaced, or already answered): the verifier's own words. */
export const NO_OPEN_REQUEST =
  "The digital ID did not verify: there is no open request for this session to answer (it was answered or replaced).";

/** Failed answers a session takes before it refuses more (docs/limits.md). */
export const DIGITAL_ID_FAILURES_MAX = 5;

/** The anchors of DIGITAL_ID_TRUST_ANCHORS; none when unset or unreadable (production refuses that: src/config/problems.ts). */
export const trustAnchorsOf = perObject((settings: Settings) => {
  if (!settings.digitalIdTrustAnchors) return [];
  try {
    return parseTrustAnchors(settings.digitalIdTrustAnchors);
  } catch {
    return [];
  }
});

/** The way is offered only where anchors are configured; the open request's policy reads the same rule (src/domain/verification/ways-offered.ts). */
export const digitalIdOffered = (settings: Pick<Settings, "digitalIdTrustAnchors">) => settings.digitalIdTrustAnchors !== undefined;

/** The origin the wallet's answer binds: the page at APP_URL asked (verification_url lies under it). */
export const appOriginOf = (settings: Settings) => new URL(settings.appUrl).origin;

/** Why an answer was refused, as the caller's error needs it: a counted failure, or a body not of an offered protocol. */
export type RefusedAnswer = {
  counted: boolean;
  error: "DIGITAL_ID_INVALID" | "DIGITAL_ID_INSUFFICIENT" | "VALIDATION_FAILED";
  message: string;
  errors: FieldError[];
};

/** The verifier's refusals; anything else (a bug, a storage fault) is thrown on. */
export function refusedAnswer(error: unknown): RefusedAnswer {
  if (
    error instanceof ApiError &&
    (error.code === "DIGITAL_ID_INVALID" || error.code === "DIGITAL_ID_INSUFFICIENT" || error.code === "VALIDATION_FAILED")
  ) {
    return { counted: error.code !== "VALIDATION_FAILED", error: error.code, message: error.message, errors: error.errors };
  }
  throw error;
}
