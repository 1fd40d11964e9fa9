// POST /api/kyc/submit: the SDK's uploads go to the provider for a check; the webhook decides later.
import { submitCheck, KycStatus } from "../../domain/kyc";
import { LIMITS } from "../../http/limits";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { countUse } from "../../http/rate-limit";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { PROVIDER_ERROR } from "./correct-applicant";

const spec = { method: "post", path: "/submit", limits: { checks: LIMITS.kycChecksPerAccount } } as const satisfies RouteSpec;

export const submitCheckRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, submitCheckDoc())),
    requireUser,
    async function submitForCheck(c) {
      await countUse(c, spec.limits.checks, c.var.user.id);
      return ok(c, await submitCheck(c.var.ctx, c.var.user.id), 202);
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function submitCheckDoc(): OperationDoc {
  return {
    tag: "KYC",
    summary: "Submit the SDK's uploads for checking",
    description:
      "Call it when the provider's SDK reports completion (Onfido Web SDK `onComplete`). The service then " +
      "creates the check at the provider (`document` and `facial_similarity_photo` reports) and answers 202 " +
      "with the status: PENDING until the provider's `check.completed` webhook decides VERIFIED or REJECTED, " +
      "which `GET /api/kyc/status` shows. Idempotent: while a check is running, or once the account is " +
      "VERIFIED, nothing new is started and the current status is returned. After a rejection, a new " +
      "submission (after new uploads) starts a new check. No body. With PROVIDER=sandbox the check is clear " +
      "at once (the typed date of birth is taken as verified), so the answer is already VERIFIED.",
    responses: {
      202: { description: "The check is running (or the account is already verified).", data: KycStatus },
      409: { description: "Create an applicant first.", codes: ["APPLICANT_REQUIRED"] },
      502: PROVIDER_ERROR,
    },
  };
}
