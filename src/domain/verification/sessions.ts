// Verification sessions, from the routes to the session's Durable Object.
import * as z from "zod";
import { ApiError, notFound, validationFailed } from "../../errors";
import { sha256Hex } from "../../lib/crypto";
import { isIdOf, newId, newToken } from "../../lib/ids";
import { addSeconds, nowIso } from "../../lib/time";
import { LOCALES } from "../../db/schema";
import { TEST_OUTCOMES } from "../../session/state-machine";
import { fullYearsOn } from "../../session/age";
import type { HolderSessionRequest } from "../../session/session-view";
import type { SessionFailure, SessionResult } from "../../session/verification-session";
import { sessionStub } from "../../session/session-stub";
import type { AuthenticatedKey } from "../keys";
import type { ServiceContext } from "../../context/service-context";
import { assertCallbackOriginAllowed, callbackUrlProblem, MAX_CALLBACK_URL_LENGTH } from "../merchant-callbacks";
import { verifyApproval, AssertionCredential } from "../passkeys";

export const MAX_REFERENCE_LENGTH = 128;
export const MAX_METADATA_PAIRS = 20;

export const OpenSessionInput = z.object({
  age_required: z.int().min(1).max(150),
  callback_url: z.string().max(MAX_CALLBACK_URL_LENGTH),
  return_url: z
    .string()
    .max(MAX_CALLBACK_URL_LENGTH)
    .optional()
    .describe(
      "Where the end user's result screen offers to go back to, with session_id appended. Same rules as callback_url. " +
        "Act only on the callback or your own poll, never on the return itself.",
    ),
  reference: z
    .string()
    .min(1)
    .max(MAX_REFERENCE_LENGTH)
    .regex(/^[\x20-\x7E]+$/, "Printable ASCII characters only.")
    .optional()
    .describe("Your own reference (an order id, say): returned by the poll, in every callback, the usage log and CSV; never shown to the end user. No personal data."),
  metadata: z
    .object({})
    .catchall(z.string().max(500))
    // Key lengths and the pair count are checked here rather than in the record's key schema, which
    // the OpenAPI document would render as propertyNames.
    .superRefine((value, ctx) => {
      const keys = Object.keys(value);
      if (keys.length > MAX_METADATA_PAIRS) ctx.addIssue({ code: "custom", message: `At most ${MAX_METADATA_PAIRS} pairs.` });
      for (const key of keys) {
        if (key.length < 1 || key.length > 40) ctx.addIssue({ code: "custom", path: [key], message: "Keys are 1 to 40 characters." });
      }
    })
    .optional()
    .describe("Up to 20 string pairs (keys ≤ 40, values ≤ 500 characters), carried like reference. No personal data."),
  locale: z.enum(LOCALES).optional().describe("The language the end user's pages open in."),
  require_passkey: z
    .boolean()
    .optional()
    .describe("Only a passkey assertion may approve this session; a password-only approval answers 403 PASSKEY_REQUIRED. Default false."),
});
export const OpenedSession = z.object({
  session_id: z.string(),
  nonce: z.string(),
  age_required: z.int(),
  expires_at: z.iso.datetime(),
  verification_url: z.string().describe("The service's /verify page for this session, nonce included: redirect, link or QR code."),
  livemode: z.boolean().describe("false when opened with a test key."),
});
export type OpenedSession = z.infer<typeof OpenedSession>;
export const TestOutcomeInput = z.object({
  outcome: z
    .enum(TEST_OUTCOMES)
    .describe("APPROVED: over age; DENIED_UNDER_AGE: under age; DENIED_REFUSED: the end user declined; EXPIRED: let it expire now."),
  nonce: z.string().min(1).max(128).optional().describe("The page's way in (no API key): the session's nonce."),
});
// The nonce may come in the X-Session-Nonce header instead (src/http/session-nonce.ts); one of them is required.
export const CompleteInput = z.object({
  nonce: z.string().min(1).max(128).optional().describe("The session's nonce, unless sent in the X-Session-Nonce header."),
  consent: z.boolean(),
  assertion: AssertionCredential.optional().describe(
    "With consent: the passkey assertion (PublicKeyCredential.toJSON()) over the challenge from POST /session/{id}/passkey-options. Required when the account has a passkey or the session requires one.",
  ),
});
export const NonceQuery = z.object({
  nonce: z.string().min(1).max(128).optional().describe("The session's nonce, unless sent in the X-Session-Nonce header (preferred: it keeps the nonce out of URLs)."),
});

const FAILURES: Record<SessionFailure, () => ApiError> = {
  NOT_FOUND: () => notFound("Session"),
  KYC_REQUIRED: () => new ApiError("KYC_REQUIRED"),
  PASSKEY_REQUIRED: () => new ApiError("PASSKEY_REQUIRED"),
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

/** The end user's page for a session, built from APP_URL (never from the request's Host). */
export const verificationUrl = (appUrl: string, sessionId: string, nonce: string) =>
  `${appUrl.replace(/\/$/, "")}/verify?session_id=${encodeURIComponent(sessionId)}&nonce=${encodeURIComponent(nonce)}`;

export async function openSession(ctx: ServiceContext, key: AuthenticatedKey, input: z.infer<typeof OpenSessionInput>): Promise<OpenedSession> {
  const allowLocalHttp = !ctx.settings.production;
  const problems = (["callback_url", "return_url"] as const).flatMap((path) => {
    const url = input[path];
    const problem = url === undefined ? null : callbackUrlProblem(url, { allowLocalHttp });
    return problem ? [{ path, message: problem }] : [];
  });
  if (problems.length > 0) throw validationFailed(problems);
  assertCallbackOriginAllowed(key.allowedCallbackOrigins, input.callback_url);
  const id = newId("ses");
  const nonce = newToken(32);
  const createdAt = nowIso();
  const expiresAt = addSeconds(createdAt, ctx.settings.sessionTtlSeconds);
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
    livemode: key.mode !== "test",
    returnUrl: input.return_url ?? null,
    reference: input.reference ?? null,
    metadata: input.metadata ?? null,
    locale: input.locale ?? null,
    holderBinding: null,
    receipt: null,
    requirePasskey: input.require_passkey ?? false,
  });
  return {
    session_id: id,
    nonce,
    age_required: input.age_required,
    expires_at: expiresAt,
    verification_url: verificationUrl(ctx.settings.appUrl, id, nonce),
    livemode: key.mode !== "test",
  };
}

/**
 * Test mode: answers a test session with a chosen outcome, from the merchant's test key or from the
 * page with the nonce. A live key, a live session, another account's session and a wrong nonce are all 404.
 */
export async function answerTestSession(ctx: ServiceContext, key: AuthenticatedKey | null, sessionId: string, input: z.infer<typeof TestOutcomeInput>) {
  const auth = key ? (key.mode === "test" ? { accountId: key.userId } : null) : input.nonce ? { nonce: input.nonce } : null;
  if (!auth) throw notFound("Session");
  return unwrap(await sessionStub(ctx, checkedId(sessionId)).testAnswer(auth, input.outcome));
}

export const pollSession = async (ctx: ServiceContext, accountId: string, sessionId: string) =>
  unwrap(await sessionStub(ctx, checkedId(sessionId)).poll(accountId));

/** The first screen's read (CONTRACT §12): the nonce proves the link, no account is involved. */
export const previewSession = async (ctx: ServiceContext, sessionId: string, nonce: string) =>
  unwrap(await sessionStub(ctx, checkedId(sessionId)).preview(nonce));

/** The request for the signed-in end user, with whether their verified date of birth meets its age. */
export async function readSessionRequest(ctx: ServiceContext, sessionId: string, nonce: string, verifiedDob: string | null = null): Promise<HolderSessionRequest> {
  const request = unwrap(await sessionStub(ctx, checkedId(sessionId)).request(nonce));
  const meets = verifiedDob === null ? null : fullYearsOn(verifiedDob, nowIso()) >= request.age_required;
  return { ...request, meets_age_required: meets };
}

/** Declining from the first screen: no account, no identity check, nothing about the person recorded. */
export const declineSession = async (ctx: ServiceContext, sessionId: string, nonce: string) =>
  unwrap(await sessionStub(ctx, checkedId(sessionId)).decline(nonce));

/** The end user answering: the account, its provider-verified date of birth (or null), whether it holds a passkey. */
export type Answerer = { userId: string; dateOfBirth: string | null; hasPasskey: boolean };

/**
 * A consent with an assertion is verified against the session's own challenge first (PASSKEY); a
 * consent without one is a PASSWORD approval, which the session refuses when the account has a
 * passkey or the merchant required one. The assertion is ignored for a refusal. The nonce comes from
 * the X-Session-Nonce header or the body (src/http/session-nonce.ts).
 */
export async function completeSession(
  ctx: ServiceContext,
  answerer: Answerer,
  sessionId: string,
  input: Omit<z.infer<typeof CompleteInput>, "nonce"> & { nonce: string },
) {
  const stub = sessionStub(ctx, checkedId(sessionId));
  const withPasskey = input.consent && input.assertion !== undefined;
  if (withPasskey) await verifyApproval(ctx, answerer.userId, sessionId, input.nonce, input.assertion!);
  return unwrap(
    await stub.complete({
      nonce: input.nonce,
      consent: input.consent,
      dateOfBirth: answerer.dateOfBirth,
      holderBinding: withPasskey ? "PASSKEY" : "PASSWORD",
      accountHasPasskey: answerer.hasPasskey,
    }),
  );
}

