// Verification sessions (docs/api-contract.md §Sessions, §Idempotency): opening, polling, answering, test outcomes, idempotent
// opens, and the answerer's account read with its completion limit.
export { accountWithVerifiedDob, loadAnswerer } from "./answerer";
export { idempotently, MAX_IDEMPOTENCY_KEY_LENGTH, parseIdempotencyKey, requestFingerprint } from "./idempotency";
export { answerWithDigitalId, DigitalIdResponseBody, requestDigitalId } from "./digital-id";
export { answerTestSession, CompleteInput, completeSession, declineSession, TestOutcomeInput } from "./answer-session";
export { anonymousWithoutToken, redeemAgeToken } from "./redeem-age-token";
export { OpenedSession, openSession, OpenSessionInput } from "./session-opening";
export { ageTokensOffered, assurancesOffered, sessionPolicy } from "./ways-offered";
export { forHolder, NonceQuery, pollSession, previewSession, readSessionRequest, sessionOpenedBy } from "./read-session";
