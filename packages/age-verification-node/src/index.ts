// age-verification-node: the merchant's server side of the age-verification service in four functions
// (open, poll, verify a callback, verify a receipt). Web Crypto and fetch only, so it runs unchanged on
// Node 20+, Deno, Bun and Cloudflare Workers. Versioned with the API it speaks (1.1.0).
export { AgeVerificationError, createClient } from "./client.js";
export type { AgeVerificationClient, ClientOptions, OpenedSession, OpenSessionRequest, PolledSession, SessionStatus } from "./client.js";
export { CALLBACK_TOLERANCE_SECONDS, CallbackVerificationError, verifyCallback } from "./callbacks.js";
export type { CallbackEvent, SessionEventType } from "./callbacks.js";
export { fetchJwks, ReceiptVerificationError, verifyReceipt } from "./receipts.js";
export type { Jwk, Jwks, ReceiptClaims } from "./receipts.js";
export type { components, paths, webhooks } from "./api-types.js";
