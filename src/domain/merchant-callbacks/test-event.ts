// Test events: a merchant checks an endpoint and its secret before going live. One signed POST of an
// `age_verification.test` event to the URL given, under the key's live secret(s) (both during a
// rotation's grace), answered with the receiver's status and a coarse duration (whole seconds: the
// endpoint's own timing would make this a timing probe of any public host, docs/security-privacy.md). Sent once, in the
// request, never queued or retried; nothing is written to the usage log or the callback log.
import { and, eq } from "drizzle-orm";
import * as z from "../../lib/lazy-zod";
import { attemptDelivery } from "../../callbacks/deliver";
import { TEST_EVENT_TYPE } from "../../session/callback-events";
import { apiKeys } from "../../db/schema";
import { notFound, validationFailed } from "../../errors";
import { isIdOf, newId } from "../../lib/ids";
import { openSecret } from "../../lib/sealed-secret";
import { nowIso } from "../../lib/time";
import { secretsKeys } from "../../config/secret-versions";
import { previousSecretLive, previousSecretRowId } from "../../callbacks/signing-secret";
import { callbackUrlProblem, MAX_CALLBACK_URL_LENGTH } from "./callback-url";
import type { ServiceContext } from "../../context/service-context";

export const TestCallbackInput = z.object({
  url: z
    .string()
    .check(
      z.maxLength(MAX_CALLBACK_URL_LENGTH),
      z.describe(OPENAPI_METADATA ? "Where to send the test event: the same rules as a session's callback_url." : ""),
    ),
});

export const TestCallbackResult = z.object({
  webhook_id: z.string().check(z.describe(OPENAPI_METADATA ? "msg_… of this test event." : "")),
  type: z.literal(TEST_EVENT_TYPE),
  delivered: z.boolean().check(z.describe(OPENAPI_METADATA ? "True when the receiver answered 2xx within 15 s." : "")),
  status_code: z.nullable(z.int()).check(z.describe(OPENAPI_METADATA ? "The receiver's status; null when it did not answer." : "")),
  error: z
    .nullable(z.string())
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "timeout, network_error, refused_address (the host is or resolves to a non-public address) or redirect_not_followed; null otherwise."
          : "",
      ),
    ),
  duration_ms: z
    .int()
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "How long the attempt took, rounded up to whole seconds (0, 1000, … 15000): coarse on purpose, so that a test event is no timing probe of a host."
          : "",
      ),
    ),
  signatures: z
    .int()
    .check(z.describe(OPENAPI_METADATA ? "How many v1 signatures webhook-signature carried (2 during a rotation's grace)." : "")),
});
export type TestCallbackResult = z.infer<typeof TestCallbackResult>;

/** Whole seconds, rounded up: enough to tell a quick answer from a slow one or a timeout, and no more. */
const coarseDuration = (ms: number) => Math.ceil(ms / 1000) * 1000;

/** `admit` is the caller's rate limit: taken once the key is found and the URL accepted, before sending. */
export async function sendTestCallback(
  ctx: ServiceContext,
  userId: string,
  keyId: string,
  url: string,
  admit: () => Promise<void>,
): Promise<TestCallbackResult> {
  if (!isIdOf("key", keyId)) throw notFound("Key");
  const [row] = await ctx.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId)))
    .limit(1);
  if (!row) throw notFound("Key");
  const problem = callbackUrlProblem(url, { allowLocalHttp: !ctx.settings.production });
  if (problem) throw validationFailed([{ path: "url", message: problem }]);
  await admit();

  const keys = secretsKeys(ctx.settings);
  const now = nowIso();
  const secrets = [await openSecret(row.signingSecretEnc, keys, row.id)];
  if (row.previousSigningSecretEnc && previousSecretLive(row, now)) {
    secrets.push(await openSecret(row.previousSigningSecretEnc, keys, previousSecretRowId(row.id)));
  }
  const webhookId = newId("msg");
  const result = await attemptDelivery(
    {
      webhookId,
      callbackUrl: url,
      type: TEST_EVENT_TYPE,
      timestamp: now,
      data: { key_id: row.id, message: "A test event: no session is involved." },
    },
    secrets,
    ctx.settings.dnsOverHttpsUrl,
  );
  const { outcome } = result;
  // The answer leaves at the rounded boundary too: the reported duration is coarse, and so is the
  // request's own time, which a caller measures whatever the body says.
  const duration = coarseDuration(result.durationMs);
  if (duration > result.durationMs) await scheduler.wait(duration - result.durationMs);
  const status = outcome.kind === "response" ? outcome.status : null;
  return {
    webhook_id: webhookId,
    type: TEST_EVENT_TYPE,
    delivered: status !== null && status >= 200 && status < 300,
    status_code: status,
    error: outcome.kind === "error" ? outcome.error : status !== null && status >= 300 && status < 400 ? "redirect_not_followed" : null,
    duration_ms: duration,
    signatures: secrets.length,
  };
}
