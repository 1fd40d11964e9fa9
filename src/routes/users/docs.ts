// The OpenAPI prose of the Users area, one function per operation. Called only behind
// `OPENAPI_METADATA &&`, so esbuild drops it from the Worker (the document is a static file).
import * as z from "../../lib/lazy-zod";
import { User } from "../../domain/accounts";
import type { OperationDoc, Responses } from "../../http/openapi-meta";

const tag = "Users";
// Built inside the functions, so that none of this module is left in the Worker.
const userOnly = () => z.object({ user: User });
const wrongPassword = { 401: { description: "Missing token, or the password given is wrong", codes: ["UNAUTHORIZED", "INVALID_CREDENTIALS"] } } satisfies Responses;

export function readAccountDoc(): OperationDoc {
  return { tag, summary: "The signed-in account", responses: { 200: { description: "The account", data: userOnly() } } };
}

export function updateProfileDoc(): OperationDoc {
  return { tag, summary: "Update names, or the company name of a business account", responses: { 200: { description: "Updated", data: userOnly() } } };
}

export function changePasswordDoc(): OperationDoc {
  return {
    tag,
    summary: "Change the password (spec endpoint 6); returns a fresh token, every earlier one stops working",
    responses: { 200: { description: "Changed", data: z.object({ token: z.string() }) }, ...wrongPassword },
  };
}

export function changeEmailDoc(): OperationDoc {
  return {
    tag,
    summary: "Start an email change: a confirmation link goes to the new address",
    responses: { 202: { description: "Confirmation sent" }, ...wrongPassword, 409: { description: "Email taken", codes: ["EMAIL_TAKEN"] } },
  };
}

export function deleteAccountDoc(): OperationDoc {
  return {
    tag,
    summary: "Delete the account (spec endpoint 7); needs a verified email",
    description:
      "Removes personal data and the KYC record, revokes every API key at once and expires pending sessions. " +
      "It needs the account's password in the body, or a token from a sign-in within the last 10 minutes (then no body is needed, as in 1.1.0): " +
      "a token lifted from a browser hours ago cannot delete the account.",
    responses: {
      200: { description: "Deleted" },
      401: { description: "Wrong password, or no password and a sign-in older than 10 minutes", codes: ["UNAUTHORIZED", "INVALID_CREDENTIALS"] },
      403: { description: "Email not verified", codes: ["EMAIL_NOT_VERIFIED"] },
    },
  };
}
