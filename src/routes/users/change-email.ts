// POST /api/users/change-email: starts an email change; the confirmation link goes to the new address.
import { ChangeEmailInput, requestEmailChange } from "../../domain/accounts";
import { LIMITS } from "../../http/limits";
import { describe, type OperationDoc, type Responses } from "../../http/openapi-meta";
import { countUse } from "../../http/rate-limit";
import { requireUser } from "../../http/require-user";
import { accepted } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";

/** The 401 of an operation that checks the password, shared with change-password.ts's prose. */
export const wrongPassword = {
  401: { description: "Missing token, or the password given is wrong", codes: ["UNAUTHORIZED", "INVALID_CREDENTIALS"] },
} satisfies Responses;

const spec = {
  method: "post",
  path: "/change-email",
  limits: {
    mails: LIMITS.accountMailsPerAccount,
    dailyMails: LIMITS.emailChangeMailsPerAccount,
    passwordChecks: LIMITS.passwordChangesPerAccount,
  },
} as const satisfies RouteSpec;

export const changeEmailRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, changeEmailDoc())),
    requireUser,
    jsonBody(ChangeEmailInput),
    async function mailEmailChange(c) {
      await countUse(c, spec.limits.mails, c.var.user.id);
      // The address mailed is the caller's choice: a day's cap per account as well as the minute's.
      await countUse(c, spec.limits.dailyMails, c.var.user.id);
      // It checks the password: on the account's own password counter, not only per location (docs/limits.md).
      await countUse(c, spec.limits.passwordChecks, c.var.user.id);
      await requestEmailChange(c.var.ctx, c.var.user, c.req.valid("json"));
      return accepted(c, "Confirm the change with the link sent to the new address.");
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function changeEmailDoc(): OperationDoc {
  return {
    tag: "Users",
    summary: "Start an email change: a confirmation link goes to the new address",
    responses: { 202: { description: "Confirmation sent" }, ...wrongPassword, 409: { description: "Email taken", codes: ["EMAIL_TAKEN"] } },
  };
}
