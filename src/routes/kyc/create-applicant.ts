// POST /api/kyc/create-applicant: the signed-in account's applicant at the identity provider (one per account).
import { createApplicant, CreateApplicantBody, MAX_AGE_YEARS } from "../../domain/kyc";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import * as z from "../../lib/lazy-zod";
import { PROVIDER_ERROR } from "./correct-applicant";

/** Built inside the prose, so none of it is in the Worker. */
const applicant = () => z.object({ applicantId: z.string() });

const spec = { method: "post", path: "/create-applicant", limits: {} } as const satisfies RouteSpec;

export const createApplicantRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, createApplicantDoc())),
    requireUser,
    jsonBody(CreateApplicantBody),
    async function createProviderApplicant(c) {
      const created = await createApplicant(c.var.ctx, c.var.user.id, c.req.valid("json"));
      return ok(c, created, 201);
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function createApplicantDoc(): OperationDoc {
  return {
    tag: "KYC",
    summary: "Create the identity-verification applicant of the signed-in account",
    description:
      "One applicant per account. Name and address are sent to the provider and not stored by the service. " +
      `\`dob\` must be a real past date, at most ${MAX_AGE_YEARS} years ago; \`address\` is optional, and when given needs ` +
      "`country` (ISO 3166-1 alpha-3) and `postcode`.",
    responses: {
      201: { description: "Applicant created.", data: applicant() },
      409: { description: "The account already has an applicant.", codes: ["APPLICANT_EXISTS"] },
      502: PROVIDER_ERROR,
    },
  };
}
