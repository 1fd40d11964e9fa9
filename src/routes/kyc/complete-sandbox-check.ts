// POST /api/kyc/sandbox/complete (development only): the sandbox's stand-in for the provider finishing a check.
import * as z from "../../lib/lazy-zod";
import { completeSandboxCheck } from "../../domain/kyc";
import { developmentOnly } from "../../http/guards";
import { describe } from "../../http/openapi-meta";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { SANDBOX_DOCUMENT_NUMBER } from "../../providers/sandbox";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { completeSandboxCheckDoc } from "./docs";

const SandboxCompleteBody = z.object({
  result: z.enum(["clear", "consider"]).default("clear").describe(OPENAPI_METADATA ? "The check result to simulate; clear by default." : ""),
  document_number: z
    .string()
    .regex(SANDBOX_DOCUMENT_NUMBER)
    .optional()
    .describe(OPENAPI_METADATA ? "The document number the simulated check reads (A-Z, 0-9, up to 20); by default one of this applicant's own. Give the same number to two accounts to simulate a reused document." : ""),
});

const spec = { method: "post", path: "/sandbox/complete", limits: {} } as const satisfies RouteSpec;

export const completeSandboxCheckRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, completeSandboxCheckDoc())),
    developmentOnly,
    requireUser,
    jsonBody(SandboxCompleteBody),
    async function completeCheck(c) {
      const { result, document_number } = c.req.valid("json");
      return ok(c, await completeSandboxCheck(c.var.ctx, c.var.user.id, result, document_number));
    },
  ),
} satisfies NamedRoute;
