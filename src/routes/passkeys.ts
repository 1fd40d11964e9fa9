// Passkeys of the signed-in account (tag Passkeys, Bearer): enrolment, list, rename, remove
// (docs/passkeys.md). The approval's assertion options live with the session (routes/verification.ts).
import { Hono } from "hono";
import * as z from "zod";
import { confirmationOptions, enrolPasskey, listPasskeys, PasskeyName, PasskeyView, registrationOptions, removePasskey, renamePasskey, AssertionCredential, PasskeyRequestOptions, RegistrationCredential } from "../domain/passkeys";
import type { AppEnv } from "../http/app-env";
import { describe, type Responses } from "../http/openapi-meta";
import { enforceLimit } from "../http/rate-limit";
import { requireUser } from "../http/require-user";
import { ok } from "../http/respond";
import { jsonBody } from "../http/validate";

const tag = "Passkeys";
const unknownPasskey = { 404: { description: "Unknown passkey, or another account's", codes: ["NOT_FOUND"] } } satisfies Responses;
const limited = { 429: { description: "More than 10 option requests a minute for this account", codes: ["RATE_LIMITED"] } } satisfies Responses;
const confirmation = AssertionCredential.optional().describe(
  "Required when the account already has a passkey: an assertion by one of them over the challenge from POST /api/users/me/passkeys/confirmation-options (without it: 403 PASSKEY_REQUIRED), so a known password cannot add or remove passkeys.",
);
const EnrolInput = z.object({ name: PasskeyName.optional(), credential: RegistrationCredential, confirmation });
const RemoveInput = z.object({ confirmation });
const needsConfirmation = { 403: { description: "The account has a passkey and the change was not confirmed with one", codes: ["PASSKEY_REQUIRED"] } } satisfies Responses;
const RenameInput = z.object({ name: PasskeyName });

const CreationOptions = z.object({
  challenge: z.string(),
  rp: z.object({ id: z.string(), name: z.string() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.object({ type: z.literal("public-key"), alg: z.int() })),
  timeout: z.int(),
  attestation: z.literal("none"),
  authenticatorSelection: z.object({ residentKey: z.literal("required"), requireResidentKey: z.boolean(), userVerification: z.literal("required") }),
  excludeCredentials: z.array(z.object({ type: z.literal("public-key"), id: z.string() })),
});

export const passkeyRoutes = new Hono<AppEnv>()
  .get(
    "/",
    describe(OPENAPI_METADATA && { tag, summary: "The account's passkeys", responses: { 200: { description: "The passkeys, oldest first", data: z.object({ passkeys: z.array(PasskeyView) }) } } }),
    requireUser,
    async (c) => ok(c, { passkeys: await listPasskeys(c.var.ctx, c.var.user.id) }),
  )
  .post(
    "/registration-options",
    describe(OPENAPI_METADATA && {
      tag,
      summary: "Options for navigator.credentials.create(): a single-use challenge valid 5 minutes",
      description: "A resident key with user verification required, attestation none, ES256. Pass them to PublicKeyCredential.parseCreationOptionsFromJSON().",
      responses: {
        200: { description: "Creation options (PublicKeyCredentialCreationOptionsJSON)", data: CreationOptions },
        409: { description: "The account holds 10 passkeys", codes: ["PASSKEY_LIMIT_REACHED"] },
        ...limited,
      },
    }),
    requireUser,
    async (c) => {
      await enforceLimit(c.env.ADDRESS_LIMITER, `passkey-options:${c.var.user.id}`);
      return ok(c, await registrationOptions(c.var.ctx, c.var.user));
    },
  )
  .post(
    "/",
    describe(OPENAPI_METADATA && {
      tag,
      summary: "Enrol a passkey: the credential navigator.credentials.create() returned (PublicKeyCredential.toJSON())",
      description: "Verified against its challenge (single use), APP_URL's origin and RP id, user presence and verification. The service keeps the credential id and public key, nothing about the device.",
      responses: {
        201: { description: "Enrolled", data: z.object({ passkey: PasskeyView }) },
        400: { description: "The registration (or the confirmation) did not verify; the message says which check failed", codes: ["PASSKEY_INVALID"] },
        ...needsConfirmation,
        409: { description: "The account holds 10 passkeys", codes: ["PASSKEY_LIMIT_REACHED"] },
      },
    }),
    requireUser,
    jsonBody(EnrolInput),
    async (c) => ok(c, { passkey: await enrolPasskey(c.var.ctx, c.var.user.id, c.req.valid("json")) }, 201),
  )
  .post(
    "/confirmation-options",
    describe(OPENAPI_METADATA && {
      tag,
      summary: "Options for navigator.credentials.get() confirming a change to the account's passkeys (adding or removing one)",
      description: "A single-use challenge valid 5 minutes, for this account's passkeys only.",
      responses: {
        200: { description: "Request options (PublicKeyCredentialRequestOptionsJSON)", data: PasskeyRequestOptions },
        404: { description: "The account has no passkey: nothing to confirm with", codes: ["NOT_FOUND"] },
        ...limited,
      },
    }),
    requireUser,
    async (c) => {
      await enforceLimit(c.env.ADDRESS_LIMITER, `passkey-options:${c.var.user.id}`);
      return ok(c, await confirmationOptions(c.var.ctx, c.var.user.id));
    },
  )
  .patch(
    "/:id",
    describe(OPENAPI_METADATA && { tag, summary: "Rename a passkey", responses: { 200: { description: "Renamed", data: z.object({ passkey: PasskeyView }) }, ...unknownPasskey } }),
    requireUser,
    jsonBody(RenameInput),
    async (c) => ok(c, { passkey: await renamePasskey(c.var.ctx, c.var.user.id, c.req.param("id"), c.req.valid("json").name) }),
  )
  .delete(
    "/:id",
    describe(OPENAPI_METADATA && {
      tag,
      summary: "Remove a passkey, confirmed with one of the account's passkeys; with none left, approvals fall back to the password sign-in",
      responses: {
        200: { description: "Removed" },
        400: { description: "The confirmation did not verify", codes: ["PASSKEY_INVALID"] },
        ...needsConfirmation,
        ...unknownPasskey,
      },
    }),
    requireUser,
    jsonBody(RemoveInput),
    async (c) => {
      await removePasskey(c.var.ctx, c.var.user.id, c.req.param("id"), c.req.valid("json").confirmation);
      return c.json({ success: true, message: "Removed" });
    },
  );
