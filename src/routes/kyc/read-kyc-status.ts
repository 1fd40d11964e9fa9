// GET /api/kyc/status: the signed-in account's identity-verification status.
import { kycStatus } from "../../domain/kyc";
import { describe } from "../../http/openapi-meta";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { readKycStatusDoc } from "./docs";

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
