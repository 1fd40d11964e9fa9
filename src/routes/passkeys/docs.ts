// The OpenAPI prose of the Passkeys area, one function per operation. Called only behind
// `OPENAPI_METADATA &&`, so esbuild drops it from the Worker (the document is a static file).
import * as z from "../../lib/lazy-zod";
import { PasskeyRequestOptions, PasskeyView } from "../../domain/passkeys";
import type { OperationDoc, Responses } from "../../http/openapi-meta";

const tag = "Passkeys";
const unknownPasskey = { 404: { description: "Unknown passkey, or another account's", codes: ["NOT_FOUND"] } } satisfies Responses;
const needsConfirmation = { 403: { description: "The account has a passkey and the change was not confirmed with one", codes: ["PASSKEY_REQUIRED"] } } satisfies Responses;

// Built inside the function, so that none of this module is left in the Worker.
const creationOptions = () =>
  z.object({
    challenge: z.string(),
    rp: z.object({ id: z.string(), name: z.string() }),
    user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
    pubKeyCredParams: z.array(z.object({ type: z.literal("public-key"), alg: z.int() })),
    timeout: z.int(),
    attestation: z.literal("none"),
    authenticatorSelection: z.object({ residentKey: z.literal("required"), requireResidentKey: z.boolean(), userVerification: z.literal("required") }),
    excludeCredentials: z.array(z.object({ type: z.literal("public-key"), id: z.string() })),
  });

export function listPasskeysDoc(): OperationDoc {
  return { tag, summary: "The account's passkeys", responses: { 200: { description: "The passkeys, oldest first", data: z.object({ passkeys: z.array(PasskeyView) }) } } };
}

export function registrationOptionsDoc(): OperationDoc {
  return {
    tag,
    summary: "Options for navigator.credentials.create(): a single-use challenge valid 5 minutes",
    description:
      "A resident key with user verification required, attestation none, ES256. Pass them to PublicKeyCredential.parseCreationOptionsFromJSON(). " +
      "For the account's first passkey the body carries the account's current password ({password}), and the enrolment body too: a stolen token alone cannot add a passkey. Later passkeys are confirmed by an existing one instead.",
    responses: {
      200: { description: "Creation options (PublicKeyCredentialCreationOptionsJSON)", data: creationOptions() },
      401: { description: "The account's first passkey without its current password, or with a wrong one", codes: ["INVALID_CREDENTIALS", "UNAUTHORIZED"] },
      409: { description: "The account holds 10 passkeys", codes: ["PASSKEY_LIMIT_REACHED"] },
    },
  };
}

export function enrolPasskeyDoc(): OperationDoc {
  return {
    tag,
    summary: "Enrol a passkey: the credential navigator.credentials.create() returned (PublicKeyCredential.toJSON())",
    description: "Verified against its challenge (single use), APP_URL's origin and RP id, user presence and verification. The service keeps the credential id and public key, nothing about the device.",
    responses: {
      201: { description: "Enrolled", data: z.object({ passkey: PasskeyView }) },
      400: { description: "The registration (or the confirmation) did not verify; the message says which check failed", codes: ["PASSKEY_INVALID"] },
      401: { description: "The account's first passkey without its current password, or with a wrong one", codes: ["INVALID_CREDENTIALS", "UNAUTHORIZED"] },
      ...needsConfirmation,
      409: { description: "The account holds 10 passkeys", codes: ["PASSKEY_LIMIT_REACHED"] },
    },
  };
}

export function confirmationOptionsDoc(): OperationDoc {
  return {
    tag,
    summary: "Options for navigator.credentials.get() confirming a change to the account's passkeys (adding or removing one)",
    description: "A single-use challenge valid 5 minutes, for this account's passkeys only.",
    responses: {
      200: { description: "Request options (PublicKeyCredentialRequestOptionsJSON)", data: PasskeyRequestOptions },
      404: { description: "The account has no passkey: nothing to confirm with", codes: ["NOT_FOUND"] },
    },
  };
}

export function renamePasskeyDoc(): OperationDoc {
  return { tag, summary: "Rename a passkey", responses: { 200: { description: "Renamed", data: z.object({ passkey: PasskeyView }) }, ...unknownPasskey } };
}

export function removePasskeyDoc(): OperationDoc {
  return {
    tag,
    summary: "Remove a passkey, confirmed with one of the account's passkeys; with none left, approvals fall back to the password sign-in",
    responses: {
      200: { description: "Removed" },
      400: { description: "The confirmation did not verify", codes: ["PASSKEY_INVALID"] },
      ...needsConfirmation,
      ...unknownPasskey,
    },
  };
}
