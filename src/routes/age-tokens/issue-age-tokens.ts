// POST /api/age-tokens: blind-signs 1-10 anonymous age tokens (Privacy Pass token type 2) for the
// signed-in, verified account (docs/api-contract.md §Age tokens, docs/double-blind.md). The account is read once, with its
// verified date of birth and whether it holds a passkey; the issuance itself is the domain's.
import { IssueAgeTokensInput, issueAgeTokensTo } from "../../domain/age-tokens";
import { AssertionCredential, verifyConfirmation } from "../../domain/passkeys";
import { accountWithVerifiedDob } from "../../domain/verification";
import { unauthorized } from "../../errors";
import { LIMITS } from "../../http/limits";
import { describe } from "../../http/openapi-meta";
import { requireAccountToken } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { issueAgeTokensDoc } from "./docs";
import { namesNoSession } from "./names-no-session";

// Strict: a field of its own (a session id, a nonce) could name a session (./names-no-session.ts).
const IssueInput = IssueAgeTokensInput.extend({
  confirmation: AssertionCredential.optional().describe(
    OPENAPI_METADATA ? "Required when the account has a passkey: an assertion by one of them over the challenge from POST /api/users/me/passkeys/confirmation-options (without it: 403 PASSKEY_REQUIRED)." : "",
  ),
}).strict();

const spec = { method: "post", path: "/", limits: { tokens: LIMITS.ageTokensPerAccount } } as const satisfies RouteSpec;

export const issueAgeTokensRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, issueAgeTokensDoc())),
    // Anything that could name a session is refused before the sign-in is checked.
    namesNoSession,
    jsonBody(IssueInput),
    requireAccountToken,
    async function issueAgeTokens(c) {
      const claims = c.var.accountClaims;
      const [row] = await accountWithVerifiedDob(c.var.ctx, claims.sub);
      if (!row || row.user.tokenVersion !== claims.ver) throw unauthorized();
      c.set("accountChecked", true);
      const holder = { userId: claims.sub, verifiedDateOfBirth: row.verifiedDob ?? null, hasPasskey: Boolean(row.hasPasskey) };
      const input = c.req.valid("json");
      const confirmHolder = () => verifyConfirmation(c.var.ctx, claims.sub, input.confirmation!);
      return ok(c, { token_responses: await issueAgeTokensTo(c.var.ctx, holder, input, confirmHolder) });
    },
  ),
} satisfies NamedRoute;
