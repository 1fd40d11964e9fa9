// DELETE /api/users/account: removes the account's personal data, revokes its keys, expires its pending sessions.
import { deleteAccount, DeleteAccountInput } from "../../domain/accounts";
import { LIMITS } from "../../http/limits";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { countUse } from "../../http/rate-limit";
import { requireUser } from "../../http/require-user";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";

const spec = {
  method: "delete",
  path: "/account",
  limits: { passwordChecks: LIMITS.passwordChangesPerAccount },
} as const satisfies RouteSpec;

export const deleteAccountRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, deleteAccountDoc())),
    requireUser,
    jsonBody(DeleteAccountInput),
    async function removeAccount(c) {
      const { password } = c.req.valid("json");
      // A password sent is a password guessed: on the account's own password counter (docs/limits.md).
      if (password !== undefined) await countUse(c, spec.limits.passwordChecks, c.var.user.id);
      await deleteAccount(c.var.ctx, c.var.user, { password, signedInAt: c.var.accountClaims.iat });
      return c.json({ success: true, message: "Deleted" });
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function deleteAccountDoc(): OperationDoc {
  return {
    tag: "Users",
    summary: "Delete the account (spec endpoint 7); needs a verified email",
    description:
      "Removes personal data and the KYC record, revokes every API key at once and expires pending sessions. " +
      "It needs the account's password in the body, or a token from a sign-in within the last 10 minutes (then no body is needed, as in 1.1.0): " +
      "a token lifted from a browser hours ago cannot delete the account.",
    responses: {
      200: { description: "Deleted" },
      401: {
        description: "Wrong password, or no password and a sign-in older than 10 minutes",
        codes: ["UNAUTHORIZED", "INVALID_CREDENTIALS"],
      },
      403: { description: "Email not verified", codes: ["EMAIL_NOT_VERIFIED"] },
    },
  };
}
