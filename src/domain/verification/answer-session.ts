// Answering a session: the end user's approval or refusal, a decline from the first screen, and test
// mode's chosen outcomes. The session's Durable Object decides; these check and pass on the answer.
import * as z from "../../lib/lazy-zod";
import type { ServiceContext } from "../../context/service-context";
import { notFound } from "../../errors";
import { sessionStub } from "../../session/session-stub";
import { TEST_OUTCOMES } from "../../session/state-machine";
import type { AuthenticatedKey } from "../keys";
import { AssertionCredential, verifyApproval } from "../passkeys";
import { AgeTokenField } from "../age-tokens";
import { countAccountUse, type AccountLimitName } from "../limits";
import { checkedId, unwrap } from "./session-calls";

export const TestOutcomeInput = z.object({
  outcome: z
    .enum(TEST_OUTCOMES)
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "APPROVED: over age; DENIED_UNDER_AGE: under age; DENIED_REFUSED: the end user declined; EXPIRED: let it expire now."
          : "",
      ),
    ),
  nonce: z
    .optional(z.string().check(z.minLength(1), z.maxLength(128)))
    .check(z.describe(OPENAPI_METADATA ? "The page's way in (no API key): the session's nonce." : "")),
});
// The nonce may come in the X-Session-Nonce header instead (src/http/session-nonce.ts); one of them is required.
export const CompleteInput = z.object({
  nonce: z
    .optional(z.string().check(z.minLength(1), z.maxLength(128)))
    .check(z.describe(OPENAPI_METADATA ? "The session's nonce, unless sent in the X-Session-Nonce header." : "")),
  consent: z.boolean(),
  assertion: z
    .optional(AssertionCredential)
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "With consent: the passkey assertion (PublicKeyCredential.toJSON()) over the challenge from POST /session/{id}/passkey-options. Required when the account has a passkey or the session requires one."
          : "",
      ),
    ),
  age_token: z
    .optional(AgeTokenField)
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "Instead of signing in: an anonymous age token (Privacy Pass token type 2, RFC 9577 §2.2, base64url) from POST /api/age-tokens, sent with consent: true and without an Authorization header. Approves with assurance KYC_VERIFIED and holder_binding ANONYMOUS_TOKEN; spent once."
          : "",
      ),
    ),
});
/**
 * Test mode: answers a test session with a chosen outcome, from the merchant's test key or from the
 * page with the nonce. A live key, a live session, another account's session and a wrong nonce are all 404.
 */
export async function answerTestSession(
  ctx: ServiceContext,
  key: AuthenticatedKey | null,
  sessionId: string,
  input: z.infer<typeof TestOutcomeInput>,
  opensLimit: AccountLimitName,
) {
  const auth = key ? (key.mode === "test" ? { accountId: key.userId } : null) : input.nonce ? { nonce: input.nonce } : null;
  if (!auth) throw notFound("Session");
  const id = checkedId(sessionId);
  // A test key's answer sends a callback like an open does: it counts on the account's opens (docs/limits.md).
  if (key) await countAccountUse(ctx, opensLimit, key.userId);
  return unwrap(await sessionStub(ctx, id).testAnswer(auth, input.outcome));
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
  if (withPasskey) await verifyApproval(ctx, answerer.userId, input.nonce, input.assertion!);
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
