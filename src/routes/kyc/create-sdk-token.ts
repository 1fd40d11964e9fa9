// GET /api/kyc/sdk-token: a short-lived token for the provider's capture SDK.
import { createSdkToken } from "../../domain/kyc";
import { LIMITS } from "../../http/limits";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { countUse } from "../../http/rate-limit";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import * as z from "../../lib/lazy-zod";
import { PROVIDER_ERROR } from "./correct-applicant";

/** Built inside the prose, so none of it is in the Worker. */
const sdkToken = () => z.object({ token: z.string(), applicantId: z.string() });

const spec = { method: "get", path: "/sdk-token", limits: { tokens: LIMITS.sdkTokensPerAccount } } as const satisfies RouteSpec;

export const createSdkTokenRoute = {
  ...spec,
  handlers: handlersFor(spec)(describe(OPENAPI_METADATA && documented(spec, createSdkTokenDoc())), requireUser, async function sdkToken(c) {
    await countUse(c, spec.limits.tokens, c.var.user.id);
    return ok(c, await createSdkToken(c.var.ctx, c.var.user.id));
  }),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function createSdkTokenDoc(): OperationDoc {
  return {
    tag: "KYC",
    summary: "Get an SDK token for the provider's capture SDK",
    responses: {
      200: { description: "A short-lived SDK token and the applicant it is for.", data: sdkToken() },
      409: { description: "Create an applicant first.", codes: ["APPLICANT_REQUIRED"] },
      502: PROVIDER_ERROR,
    },
  };
}
