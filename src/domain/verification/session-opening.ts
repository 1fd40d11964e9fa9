// Opening a verification session (docs/api-contract.md §Sessions): the merchant's request, checked, becomes a new
// session's Durable Object; the answer carries the nonce and the end user's page for it.
import { chosenShard } from "../../context/shard-routing";
import * as z from "../../lib/lazy-zod";
import type { ServiceContext } from "../../context/service-context";
import { LOCALES } from "../../db/schema";
import { validationFailed } from "../../errors";
import { sha256Hex } from "../../lib/crypto";
import { newId, newToken } from "../../lib/ids";
import { addSeconds, nowIso } from "../../lib/time";
import { sessionStub } from "../../session/session-stub";
import type { OpenAdmission } from "../../session/verification-session";
import { counterKeys, limitOf, type AccountLimitName } from "../limits";
import { tooManySessions } from "./session-calls";
import type { AuthenticatedKey } from "../keys";
import { ASSURANCES } from "../../session/assurance";
import { sessionPolicy } from "./ways-offered";
import { assertCallbackOriginAllowed, callbackUrlProblem, MAX_CALLBACK_URL_LENGTH } from "../merchant-callbacks";

export const MAX_REFERENCE_LENGTH = 128;
export const MAX_METADATA_PAIRS = 20;

export const OpenSessionInput = z.object({
  age_required: z.int().check(z.gte(1), z.lte(150)),
  callback_url: z.string().check(z.maxLength(MAX_CALLBACK_URL_LENGTH)),
  return_url: z
    .optional(z.string().check(z.maxLength(MAX_CALLBACK_URL_LENGTH)))
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "Where the end user's result screen offers to go back to, with session_id appended. Same rules as callback_url. " +
              "Act only on the callback or your own poll, never on the return itself."
          : "",
      ),
    ),
  reference: z
    .optional(
      z.string().check(z.minLength(1), z.maxLength(MAX_REFERENCE_LENGTH), z.regex(/^[\x20-\x7E]+$/, "Printable ASCII characters only.")),
    )
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "Your own reference (an order id, say): returned by the poll, in every callback, the usage log and CSV; never shown to the end user. No personal data."
          : "",
      ),
    ),
  metadata: z
    .optional(
      z.catchall(z.object({}), z.string().check(z.maxLength(500))).check(
        // Key lengths and the pair count are checked here rather than in the record's key schema, which
        // the OpenAPI document would render as propertyNames.
        z.superRefine((value, ctx) => {
          const keys = Object.keys(value);
          if (keys.length > MAX_METADATA_PAIRS) ctx.addIssue({ code: "custom", message: `At most ${MAX_METADATA_PAIRS} pairs.` });
          for (const key of keys) {
            if (key.length < 1 || key.length > 40) ctx.addIssue({ code: "custom", path: [key], message: "Keys are 1 to 40 characters." });
          }
        }),
      ),
    )
    .check(
      z.describe(
        OPENAPI_METADATA ? "Up to 20 string pairs (keys ≤ 40, values ≤ 500 characters), carried like reference. No personal data." : "",
      ),
    ),
  locale: z.optional(z.enum(LOCALES)).check(z.describe(OPENAPI_METADATA ? "The language the end user's pages open in." : "")),
  require_passkey: z
    .optional(z.boolean())
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "Default false. true: only a key on the person's device, used at the approval, may approve: a passkey assertion (holder_binding PASSKEY) or a wallet's device signature (DEVICE_KEY: an mdoc's device signature or an SD-JWT VC's key-binding JWT). A password approval and an anonymous age token answer 403 PASSKEY_REQUIRED and the session stays PENDING. With double_blind: true the wallet is the only way left, so the pair is 422 unless the session accepts DIGITAL_ID_VERIFIED and this deployment offers it (docs/passkeys.md)."
          : "",
      ),
    ),
  accepted_assurance: z
    .optional(
      z.array(z.enum(ASSURANCES)).check(
        z.minLength(1),
        z.maxLength(ASSURANCES.length),
        z.refine((ways) => new Set(ways).size === ways.length, "Each way at most once."),
      ),
    )
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "The ways you accept: KYC_VERIFIED (an account verified by the identity provider, or an anonymous age token issued to one), DIGITAL_ID_VERIFIED (a credential from the person's wallet). Default: every way this deployment offers. A way it does not offer is 422; the pages offer only these, and any other answers 403 ASSURANCE_NOT_ACCEPTED."
          : "",
      ),
    ),
  double_blind: z
    .optional(z.boolean())
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "Default false. true: only an anonymous age token or a digital ID may approve, so the service never holds an account and this session together (docs/double-blind.md); a password or passkey approval answers 403 DOUBLE_BLIND_REQUIRED. 422 when no accepted way could approve such a session here."
          : "",
      ),
    ),
});
export const OpenedSession = z.object({
  session_id: z.string(),
  nonce: z.string(),
  age_required: z.int(),
  expires_at: z.iso.datetime(),
  verification_url: z
    .string()
    .check(z.describe(OPENAPI_METADATA ? "The service's /verify page for this session, nonce included: redirect, link or QR code." : "")),
  livemode: z.boolean().check(z.describe(OPENAPI_METADATA ? "false when opened with a test key." : "")),
  accepted_assurance: z
    .array(z.enum(ASSURANCES))
    .check(
      z.describe(
        OPENAPI_METADATA ? "The ways this session accepts: the request's accepted_assurance, or every way this deployment offers." : "",
      ),
    ),
  double_blind: z.boolean(),
});
export type OpenedSession = z.infer<typeof OpenedSession>;
/** The end user's page for a session, built from APP_URL (never from the request's Host). */
export const verificationUrl = (appUrl: string, sessionId: string, nonce: string) =>
  `${appUrl.replace(/\/$/, "")}/verify?session_id=${encodeURIComponent(sessionId)}&nonce=${encodeURIComponent(nonce)}`;

/** `opensLimit`: the account limit the opens count on (the route declares it: src/routes/verification/open-session.ts). */
export async function openSession(
  ctx: ServiceContext,
  key: AuthenticatedKey,
  input: z.infer<typeof OpenSessionInput>,
  opensLimit: AccountLimitName,
): Promise<OpenedSession> {
  const allowLocalHttp = !ctx.settings.production;
  const problems = (["callback_url", "return_url"] as const).flatMap((path) => {
    const url = input[path];
    const problem = url === undefined ? null : callbackUrlProblem(url, { allowLocalHttp });
    return problem ? [{ path, message: problem }] : [];
  });
  if (problems.length > 0) throw validationFailed(problems);
  const policy = sessionPolicy(ctx.settings, input);
  if (!policy.ok) throw validationFailed(policy.errors);
  assertCallbackOriginAllowed(key.allowedCallbackOrigins, input.callback_url);
  const id = newId("ses");
  const nonce = newToken(32);
  const createdAt = nowIso();
  const expiresAt = addSeconds(createdAt, ctx.settings.sessionTtlSeconds);
  // This minute's counter of the account's opens: counted with the log row's insert, in one D1 batch.
  const now = Date.parse(createdAt);
  const [opens] = await counterKeys(ctx.settings, opensLimit, key.userId, now);
  const admission: OpenAdmission = {
    opens: opens!,
    opensPerMinute: limitOf(ctx.settings, opens!.window),
    pendingMax: ctx.settings.pendingSessionsMax,
  };
  const opened = await sessionStub(ctx, id).open(
    {
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
      acceptedAssurance: policy.policy.acceptedAssurance,
      doubleBlind: policy.policy.doubleBlind,
      // The merchant's shard (requireApiKey chose it from the key): the object's D1 writes go there.
      shard: chosenShard(ctx),
    },
    admission,
  );
  if (!opened.ok) {
    // Past the minute's opens: until the window ends. Past the pending sessions: a minute, as sessions
    // resolve and expire all the time.
    throw tooManySessions(opened.error === "OVER_SESSION_OPENS_PER_ACCOUNT" ? opens!.end - Math.floor(now / 1000) : 60);
  }
  return {
    session_id: id,
    nonce,
    age_required: input.age_required,
    expires_at: expiresAt,
    verification_url: verificationUrl(ctx.settings.appUrl, id, nonce),
    livemode: key.mode !== "test",
    accepted_assurance: policy.policy.acceptedAssurance,
    double_blind: policy.policy.doubleBlind,
  };
}
