// GET /api/kyc/status: the signed-in account's identity-verification status.
import { kycStatus, KycStatus } from "../../domain/kyc";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";

const spec = { method: "get", path: "/status", limits: {} } as const satisfies RouteSpec;

export const readKycStatusRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, readKycStatusDoc())),
    requireUser,
    async function readStatus(c) {
      return ok(c, await kycStatus(c.var.ctx, c.var.user.id));
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function readKycStatusDoc(): OperationDoc {
  return {
    tag: "KYC",
    summary: "KYC status of the signed-in account",
    description: "NOT_STARTED before an applicant exists; `verifiedAt` is set only while VERIFIED.",
    responses: { 200: { description: "The account's KYC status.", data: KycStatus } },
  };
}
