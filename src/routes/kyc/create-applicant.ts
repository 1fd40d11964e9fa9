// POST /api/kyc/create-applicant: the signed-in account's applicant at the identity provider (one per account).
import { createApplicant, CreateApplicantBody } from "../../domain/kyc";
import { describe } from "../../http/openapi-meta";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { createApplicantDoc } from "./docs";

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
