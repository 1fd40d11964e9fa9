// POST /api/kyc/sandbox/complete (development only): the sandbox's stand-in for the provider finishing a check.
import * as z from "../../lib/lazy-zod";
import { completeSandboxCheck, KycStatus } from "../../domain/kyc";
import { developmentOnly } from "../../http/guards";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { SANDBOX_DOCUMENT_NUMBER } from "../../providers/sandbox";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";

const SandboxCompleteBody = z.object({
  result: z
    ._default(z.enum(["clear", "consider"]), "clear")
    .check(z.describe(OPENAPI_METADATA ? "The check result to simulate; clear by default." : "")),
  document_number: z
    .optional(z.string().check(z.regex(SANDBOX_DOCUMENT_NUMBER)))
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "The document number the simulated check reads (A-Z, 0-9, up to 20); by default one of this applicant's own. Give the same number to two accounts to simulate a reused document."
          : "",
      ),
    ),
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

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function completeSandboxCheckDoc(): OperationDoc {
  return {
    tag: "KYC",
    summary: "Sandbox: complete a check for the signed-in account's applicant",
    description:
      "Only with PROVIDER=sandbox (404 otherwise). Takes the date of birth given at applicant creation as " +
      "verified (`result: clear`, the default) or rejects (`consider`), through the same code path as a " +
      "provider webhook. The body is optional.",
    devOnly: true,
    responses: {
      200: { description: "The account's KYC status after the check.", data: KycStatus },
      404: { description: "Not in this configuration (NOT_FOUND)." },
      409: { description: "Create an applicant first.", codes: ["APPLICANT_REQUIRED"] },
    },
  };
}
