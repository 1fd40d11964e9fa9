// POST /api/attestations/offers: a credential offer (pre-authorized code and transaction code) for the
// signed-in, verified adult's wallet (docs/attestations.md). The account is read once, with its verified
// date of birth and whether it holds a passkey; who may have one is the domain's (batch-authorization.ts).
import { authorizeBatch, createCredentialOffer } from "../../domain/attestations";
import { verifyConfirmation } from "../../domain/passkeys";
import { accountWithVerifiedDob } from "../../domain/verification";
import { unauthorized } from "../../errors";
import { LIMITS } from "../../http/limits";
import { describe } from "../../http/openapi-meta";
import { requireAccountToken } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { createOfferDoc } from "./docs";
import { CreateOfferInput } from "./schemas";

const spec = { method: "post", path: "/offers", limits: { batches: LIMITS.attestationBatchesPerAccount } } as const satisfies RouteSpec;

export const createOfferRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, createOfferDoc())),
    requireAccountToken,
    jsonBody(CreateOfferInput),
    async function createOffer(c) {
      const claims = c.var.accountClaims;
      const [row] = await accountWithVerifiedDob(c.var.ctx, claims.sub);
      if (!row || row.user.tokenVersion !== claims.ver) throw unauthorized();
      c.set("accountChecked", true);
      const input = c.req.valid("json");
      const holder = { userId: claims.sub, verifiedDateOfBirth: row.verifiedDob ?? null, hasPasskey: Boolean(row.hasPasskey) };
      const now = Date.now();
      await authorizeBatch(
        c.var.ctx,
        holder,
        input.confirmation !== undefined,
        () => verifyConfirmation(c.var.ctx, claims.sub, input.confirmation!),
        now,
      );
      return ok(c, await createCredentialOffer(c.var.ctx, now), 201);
    },
  ),
} satisfies NamedRoute;
