// POST /authorize: the consent page's form (docs/attestations.md). The request is checked again from the
// form's action; the person signs in with their email and password (limited as POST /api/auth/login is:
// per address, and per email and address); the batch is authorized and counted as for an offer
// (batch-authorization.ts); then 302 to the wallet's redirect_uri with the code. A refusal is the page
// again, in its language, saying why; an account with a passkey is told that the page confirms with it
// when script runs (consent.browser.js), since a password alone cannot give the fresh passkey assertion
// it needs.
import { login, LoginInput } from "../../domain/accounts";
import { attestationSigner, authorizeBatch, checkAuthorizationRequest, issueAuthorizationCode } from "../../domain/attestations";
import { accountWithVerifiedDob } from "../../domain/verification";
import { onAccountShard } from "../../context/shard-routing";
import { ApiError, notFound } from "../../errors";
import { LIMITS } from "../../http/limits";
import { describe } from "../../http/openapi-meta";
import { clientAddress, countUse } from "../../http/rate-limit";
import type { TextKey } from "../../web/i18n/en";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { consentPage } from "./authorize-page";
import { asOAuth, formBody } from "./oauth-response";

const spec = {
  method: "post",
  path: "/authorize",
  limits: {
    perAddress: LIMITS.loginPerAddress,
    perEmailAndAddress: LIMITS.loginPerEmailAndAddress,
    batches: LIMITS.attestationBatchesPerAccount,
  },
} as const satisfies RouteSpec;

/** What the page says (its catalogue's text) for each refusal the person can act on. */
const SAYS: Partial<Record<string, TextKey>> = {
  INVALID_CREDENTIALS: "consent.error.credentials",
  VALIDATION_FAILED: "consent.error.fields",
  KYC_REQUIRED: "consent.error.kyc",
  ATTESTATION_NOT_ALLOWED: "consent.error.underage",
  PASSKEY_REQUIRED: "consent.error.passkey",
  RATE_LIMITED: "consent.error.limited",
};

export const approveOnPageRoute = {
  ...spec,
  handlers: handlersFor(spec)(describe(OPENAPI_METADATA && documented(spec, {})), async function approveOnPage(c) {
    if (!(await attestationSigner(c.var.ctx.settings))) throw notFound("Route");
    return asOAuth(c, async () => {
      const request = checkAuthorizationRequest(c.req.query());
      try {
        const credentials = LoginInput.safeParse(await formBody(c));
        if (!credentials.success) throw new ApiError("VALIDATION_FAILED");
        const address = clientAddress(c);
        await countUse(c, spec.limits.perAddress, address);
        await countUse(c, spec.limits.perEmailAndAddress, `${credentials.data.email}:${address}`);
        const { user } = await login(c.var.ctx, credentials.data);
        const ctx = await onAccountShard(c.var.ctx, user.id);
        const [row] = await accountWithVerifiedDob(ctx, user.id);
        if (!row) throw new ApiError("INVALID_CREDENTIALS");
        const holder = { userId: user.id, verifiedDateOfBirth: row.verifiedDob ?? null, hasPasskey: Boolean(row.hasPasskey) };
        const now = Date.now();
        await authorizeBatch(ctx, holder, false, async () => undefined, now);
        return c.redirect(await issueAuthorizationCode(ctx, request, now), 302);
      } catch (error) {
        const says = error instanceof ApiError ? SAYS[error.code] : undefined;
        if (!says || !(error instanceof ApiError)) throw error;
        const status = error.status === 401 || error.status === 403 || error.status === 429 ? error.status : 400;
        return c.html(await consentPage(c, request.redirect_uri, says), status);
      }
    });
  }),
} satisfies NamedRoute;
