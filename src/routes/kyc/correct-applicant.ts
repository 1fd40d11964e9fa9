// PUT /api/kyc/applicant: corrected name and date of birth after a refused check (docs/end-user-apps.md), since
// create-applicant answers APPLICANT_EXISTS once the applicant exists.
import { correctApplicant, CreateApplicantBody } from "../../domain/kyc";
import { LIMITS } from "../../http/limits";
import { describe } from "../../http/openapi-meta";
import { countUse } from "../../http/rate-limit";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { correctApplicantDoc } from "./docs";

const spec = { method: "put", path: "/applicant", limits: { corrections: LIMITS.applicantUpdatesPerAccount } } as const satisfies RouteSpec;

export const correctApplicantRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, correctApplicantDoc())),
    requireUser,
    jsonBody(CreateApplicantBody),
    async function correctProviderApplicant(c) {
      await countUse(c, spec.limits.corrections, c.var.user.id);
      return ok(c, await correctApplicant(c.var.ctx, c.var.user.id, c.req.valid("json")));
    },
  ),
} satisfies NamedRoute;
