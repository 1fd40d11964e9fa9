// POST /api/attestations/offers: a credential offer (pre-authorized code and transaction code) for the
// signed-in, verified adult's wallet (docs/attestations.md). The account is read once, with its verified
// date of birth and whether it holds a passkey; who may have one is the domain's (batch-authorization.ts).
import { authorizeBatch, createCredentialOffer } from "../../domain/attestations";
import { verifyConfirmation } from "../../domain/passkeys";
import { accountWithVerifiedDob } from "../../domain/verification";
import { unauthorized } from "../../errors";
import { LIMITS } from "../../http/limits";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { requireAccountToken } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import * as z from "../../lib/lazy-zod";
import { CreateOfferInput } from "./schemas";

/** The answer: what the person's app shows. Read only by the prose below. */
const CredentialOfferOutput = z.object({
  credential_offer: z
    .record(z.string(), z.unknown())
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "The OpenID4VCI credential offer object (credential_issuer, credential_configuration_ids [proof_of_age], the pre-authorized code grant with tx_code {length, input_mode})"
          : "",
      ),
    ),
  credential_offer_uri: z
    .string()
    .check(z.describe(OPENAPI_METADATA ? "openid-credential-offer://?credential_offer=… (the offer by value)" : "")),
  av_uri: z.string().check(z.describe(OPENAPI_METADATA ? "av://?credential_offer=… (the EU age-verification blueprint's link)" : "")),
  tx_code: z
    .string()
    .check(z.describe(OPENAPI_METADATA ? "The digits the person types in the wallet; shown, never sent with the offer" : "")),
  expires_at: z.string().check(z.describe(OPENAPI_METADATA ? "When the offer dies (5 minutes)" : "")),
});

/** Who may ask, in the prose of both operations that authorize a batch (approve-authorization.ts's prose imports it). */
export const WHO =
  "The signed-in account must have a verified identity (403 KYC_REQUIRED) and a verified date of birth making it at least 18 today (403 ATTESTATION_NOT_ALLOWED); an account with a passkey confirms with a fresh assertion (403 PASSKEY_REQUIRED without one). " +
  "Each call counts one batch (up to 30 attestations) against the account's daily limit (ATTESTATION_BATCHES_PER_DAY, 3 in production), before anything is issued. ";
/** The refusals of both operations that authorize a batch. */
export const refusals = {
  400: { description: "The passkey assertion did not verify", codes: ["PASSKEY_INVALID"] },
  403: {
    description:
      "No verified identity (KYC_REQUIRED), a verified age under 18 (ATTESTATION_NOT_ALLOWED), or an account with a passkey asking without a fresh assertion (PASSKEY_REQUIRED)",
    codes: ["KYC_REQUIRED", "ATTESTATION_NOT_ALLOWED", "PASSKEY_REQUIRED"],
  },
  404: { description: "This deployment issues no attestations", codes: ["NOT_FOUND"] },
} as const;

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

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function createOfferDoc(): OperationDoc {
  return {
    tag: "Attestations",
    summary: "A credential offer of proof-of-age attestations for the signed-in person's wallet (pre-authorized code)",
    description:
      "Makes an OpenID4VCI 1.0 credential offer for the EU proof-of-age attestation (mdoc eu.europa.ec.av.1, age_over_18), with a single-use pre-authorized code and a 6-digit transaction code. " +
      "Show av_uri (the EU blueprint's link) or credential_offer_uri as a QR code or a link, and tx_code as digits for the person to type in their wallet. The offer lives 5 minutes, is redeemed once at POST /token, and dies after 5 wrong transaction codes. " +
      WHO +
      "The offer names no account: the daily count is all the service keeps. docs/attestations.md.",
    responses: { 201: { description: "The offer", data: CredentialOfferOutput }, ...refusals },
  };
}
