// Calls into a session's Durable Object from the features: its failures become the API's errors, and an
// id of the wrong shape is refused before any storage is touched.
import { ApiError, notFound, validationFailed } from "../../errors";
import { isIdOf } from "../../lib/ids";
import type { FailureDetail, SessionFailure, SessionResult } from "../../session/verification-session";

const FAILURES: Record<SessionFailure, (detail: FailureDetail) => ApiError> = {
  NOT_FOUND: () => notFound("Session"),
  SESSION_WITHDRAWN: () => new ApiError("SESSION_WITHDRAWN"),
  KYC_REQUIRED: () => new ApiError("KYC_REQUIRED"),
  PASSKEY_REQUIRED: () => new ApiError("PASSKEY_REQUIRED"),
  ASSURANCE_NOT_ACCEPTED: () => new ApiError("ASSURANCE_NOT_ACCEPTED"),
  DOUBLE_BLIND_REQUIRED: () => new ApiError("DOUBLE_BLIND_REQUIRED"),
  SESSION_NOT_PENDING: () => new ApiError("SESSION_NOT_PENDING"),
  AGE_TOKEN_SPENT: () => new ApiError("AGE_TOKEN_SPENT"),
  AGE_TOKEN_INVALID: () => new ApiError("AGE_TOKEN_INVALID"),
  AGE_TOKEN_INSUFFICIENT: () => new ApiError("AGE_TOKEN_INSUFFICIENT"),
  // Opening's own refusals carry their exact Retry-After (src/domain/verification/session-opening.ts).
  OVER_SESSION_OPENS_PER_ACCOUNT: () => tooManySessions(60),
  TOO_MANY_PENDING: () => tooManySessions(60),
  // A wallet's answer: the message names the check that failed, never a value of the credential.
  DIGITAL_ID_INVALID: ({ message }) => new ApiError("DIGITAL_ID_INVALID", { message }),
  DIGITAL_ID_INSUFFICIENT: ({ message }) => new ApiError("DIGITAL_ID_INSUFFICIENT", { message }),
  DIGITAL_ID_BODY_INVALID: ({ errors }) => validationFailed(errors ?? []),
  DIGITAL_ID_FAILURES_EXCEEDED: ({ retryAfter }) =>
    new ApiError("RATE_LIMITED", {
      message: "This request had too many digital IDs that did not verify; use another way to prove your age.",
      headers: { "Retry-After": String(retryAfter ?? 60) },
    }),
};

/** 429 for opening past the account's limits (docs/limits.md): Retry-After in seconds. */
export const tooManySessions = (retryAfter: number) =>
  new ApiError("RATE_LIMITED", {
    message: "This account opened too many sessions; try again later.",
    headers: { "Retry-After": String(Math.max(retryAfter, 1)) },
  });

export function unwrap<T>(result: SessionResult<T>): T {
  if (!result.ok) throw FAILURES[result.error](result.detail ?? {});
  return result.value;
}

/** A session id of the wrong shape is answered like an unknown one, without touching storage. */
export function checkedId(sessionId: string): string {
  if (!isIdOf("ses", sessionId)) throw notFound("Session");
  return sessionId;
}
