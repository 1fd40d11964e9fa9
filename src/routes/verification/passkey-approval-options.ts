// POST /api/age-verification/session/{id}/passkey-options: a challenge bound to this session and account,
// for approving it with a passkey.
import { approvalOptions, PasskeyRequestOptions } from "../../domain/passkeys";
import { NonceQuery, readSessionRequest } from "../../domain/verification";
import type { AppEnv } from "../../http/app-env";
import { LIMITS } from "../../http/limits";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { countUse, limitPerAddress } from "../../http/rate-limit";
import { ApiError } from "../../errors";
import { policyRefusal } from "../../session/answer-policy";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { sessionNonce, sessionNonceHeader } from "../../http/session-nonce";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { accountOnDoubleBlind, noAccountOnDoubleBlind, nonceInHeaderOr } from "./no-account-on-double-blind";
import { linkSession } from "./session-responses";

const spec = {
  method: "post",
  path: "/session/:id/passkey-options",
  limits: { options: LIMITS.passkeyOptionsPerAccount, perAddress: LIMITS.sessionLinkPerAddress },
} as const satisfies RouteSpec;

export const passkeyApprovalOptionsRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, passkeyApprovalOptionsDoc())),
    limitPerAddress(spec.limits.perAddress),
    sessionNonceHeader,
    jsonBody(NonceQuery),
    // The session before the account: a double-blind one refuses before the sign-in is even checked.
    noAccountOnDoubleBlind(nonceInHeaderOr("json")),
    requireUser,
    async function approvalChallenge(c) {
      const nonce = sessionNonce(c.req.valid("header")["x-session-nonce"], c.req.valid("json").nonce, "nonce");
      // The session and nonce first (404, writing nothing); only a challenge that will be stored counts against the limit.
      const request =
        (c.get("openedSession") as AppEnv["Variables"]["openedSession"] | undefined) ??
        (await readSessionRequest(c.var.ctx, c.req.param("id"), nonce));
      // A session the account may not approve (double-blind, or not accepting KYC_VERIFIED) gets no
      // challenge: nothing of the account's passkeys is spent on an answer that will be refused.
      const refusal = policyRefusal({ acceptedAssurance: request.accepted_assurance, doubleBlind: request.double_blind }, "account");
      if (refusal) throw new ApiError(refusal);
      await countUse(c, spec.limits.options, c.var.user.id);
      return ok(c, await approvalOptions(c.var.ctx, c.var.user.id, nonce));
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function passkeyApprovalOptionsDoc(): OperationDoc {
  return {
    tag: "Verification",
    summary: "Options for navigator.credentials.get() to approve this session with a passkey",
    description:
      "The challenge is single use, valid 5 minutes and bound to this session (by its nonce: no session id is stored with it) and this account; send the resulting assertion with consent: true to /complete.",
    responses: {
      200: { description: "Request options (PublicKeyCredentialRequestOptionsJSON)", data: PasskeyRequestOptions },
      ...accountOnDoubleBlind,
      ...linkSession(),
    },
  };
}
