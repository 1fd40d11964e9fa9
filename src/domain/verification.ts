// Verification sessions, from the routes to the session's Durable Object.
import * as z from "zod";
import { isProduction, sessionTtlSeconds } from "../config";
import { ApiError, notFound, validationFailed } from "../errors";
import { sha256Hex } from "../lib/crypto";
import { isIdOf, newId, newToken } from "../lib/ids";
import { addSeconds, nowIso } from "../lib/time";
import type { SessionFailure, SessionResult, VerificationSession } from "../session/verification-session";
import type { AuthenticatedKey } from "./api-key-auth";
import type { DomainContext } from "./context";
import { callbackUrlProblem, MAX_CALLBACK_URL_LENGTH } from "./callback-url";

export const OpenSessionInput = z.object({
  age_required: z.int().min(1).max(150),
  callback_url: z.string().max(MAX_CALLBACK_URL_LENGTH),
});
export const OpenedSession = z.object({
  session_id: z.string(),
  nonce: z.string(),
  age_required: z.int(),
  expires_at: z.iso.datetime(),
});
export const CompleteInput = z.object({ nonce: z.string().min(1).max(128), consent: z.boolean() });
export const NonceQuery = z.object({ nonce: z.string().min(1).max(128) });

export function sessionStub({ env }: DomainContext, sessionId: string) {
  const namespace = env.SESSIONS as DurableObjectNamespace<VerificationSession>;
  return namespace.get(namespace.idFromName(sessionId));
}

const FAILURES: Record<SessionFailure, () => ApiError> = {
  NOT_FOUND: () => notFound("Session"),
  KYC_REQUIRED: () => new ApiError("KYC_REQUIRED"),
  SESSION_NOT_PENDING: () => new ApiError("SESSION_NOT_PENDING"),
};

function unwrap<T>(result: SessionResult<T>): T {
  if (!result.ok) throw FAILURES[result.error]();
  return result.value;
}

/** A session id of the wrong shape is answered like an unknown one, without touching storage. */
function checkedId(sessionId: string): string {
  if (!isIdOf("ses", sessionId)) throw notFound("Session");
  return sessionId;
}

export async function openSession(ctx: DomainContext, key: AuthenticatedKey, input: z.infer<typeof OpenSessionInput>) {
  const problem = callbackUrlProblem(input.callback_url, { allowLocalHttp: !isProduction(ctx.env) });
  if (problem) throw validationFailed([{ path: "callback_url", message: problem }]);
  const id = newId("ses");
  const nonce = newToken(32);
  const createdAt = nowIso();
  const expiresAt = addSeconds(createdAt, sessionTtlSeconds(ctx.env));
  await sessionStub(ctx, id).open({
    id,
    accountId: key.userId,
    keyId: key.id,
    merchantName: key.companyName ?? "",
    ageRequired: input.age_required,
    callbackUrl: input.callback_url,
    nonceHash: await sha256Hex(nonce),
    status: "PENDING",
    createdAt,
    expiresAt,
    resolvedAt: null,
    aboveAgeRequired: false,
    receiptId: null,
  });
  return { session_id: id, nonce, age_required: input.age_required, expires_at: expiresAt };
}

export const pollSession = async (ctx: DomainContext, accountId: string, sessionId: string) =>
  unwrap(await sessionStub(ctx, checkedId(sessionId)).poll(accountId));

export const readSessionRequest = async (ctx: DomainContext, sessionId: string, nonce: string) =>
  unwrap(await sessionStub(ctx, checkedId(sessionId)).request(nonce));

/** The first screen's read (CONTRACT §12): the nonce proves the link, no account is involved. */
export const previewSession = async (ctx: DomainContext, sessionId: string, nonce: string) =>
  unwrap(await sessionStub(ctx, checkedId(sessionId)).preview(nonce));

/** Declining from the first screen: no account, no identity check, nothing about the person recorded. */
export const declineSession = async (ctx: DomainContext, sessionId: string, nonce: string) =>
  unwrap(await sessionStub(ctx, checkedId(sessionId)).decline(nonce));

/** `dateOfBirth` is the end user's provider-verified one, or null without a verified identity. */
export async function completeSession(ctx: DomainContext, dateOfBirth: string | null, sessionId: string, input: z.infer<typeof CompleteInput>) {
  const stub = sessionStub(ctx, checkedId(sessionId));
  return unwrap(await stub.complete({ nonce: input.nonce, consent: input.consent, dateOfBirth }));
}
