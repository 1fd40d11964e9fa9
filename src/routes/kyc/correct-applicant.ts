// PUT /api/kyc/applicant: corrected name and date of birth after a refused check (docs/end-user-apps.md), since
// create-applicant answers APPLICANT_EXISTS once the applicant exists.
import { correctApplicant, CreateApplicantBody, KycStatus } from "../../domain/kyc";
import { LIMITS } from "../../http/limits";
import { describe, type ErrorResponseDoc, type OperationDoc } from "../../http/openapi-meta";
import { countUse } from "../../http/rate-limit";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";

/** The 502 of an operation that calls the identity provider, shared with the area's other such operations' prose. */
export const PROVIDER_ERROR = {
  description: "The identity provider failed or is unreachable.",
  codes: ["PROVIDER_ERROR"],
} satisfies ErrorResponseDoc<502>;

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

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function correctApplicantDoc(): OperationDoc {
  return {
    tag: "KYC",
    summary: "Correct the applicant's name and date of birth after a refused check",
    description:
      "For a person whose check was refused (status REJECTED) because of a mistyped name or date of birth: " +
      "`create-applicant` answers `APPLICANT_EXISTS` once the applicant exists. The body is create-applicant's, " +
      "validated the same way. The service replaces the applicant's details at the provider (Onfido: " +
      "`PUT /applicants/{id}`; the sandbox then takes the corrected date as verified) and sets the status back " +
      "to PENDING with no check, as after create-applicant: the person uploads the documents again (or, in the " +
      "sandbox, chooses an outcome) and `POST /api/kyc/submit` starts a check of the corrected applicant. " +
      "Nothing typed is stored by the service. Refused for a verified account, while a check is running or " +
      "waiting for documents, and for a record refused because its document already verifies another account.",
    responses: {
      200: { description: "The details were corrected; the account's KYC status (PENDING).", data: KycStatus },
      409: {
        description:
          "No applicant yet (`APPLICANT_REQUIRED`), the identity is already verified (`KYC_ALREADY_VERIFIED`), the check " +
          "is not finished (`KYC_CHECK_PENDING`), or the document already verifies another account (`IDENTITY_ALREADY_VERIFIED`).",
        codes: ["APPLICANT_REQUIRED", "KYC_ALREADY_VERIFIED", "KYC_CHECK_PENDING", "IDENTITY_ALREADY_VERIFIED"],
      },
      502: PROVIDER_ERROR,
    },
  };
}
