// The OpenAPI prose of the Auth area, one function per operation. Called only behind
// `OPENAPI_METADATA &&`, so esbuild drops it from the Worker (the document is a static file).
import * as z from "../../lib/lazy-zod";
import { User } from "../../domain/accounts";
import type { OperationDoc, Responses } from "../../http/openapi-meta";

const tag = "Auth";
// Schemas built inside the functions, so that none of this module is left in the Worker.
const userAndToken = () => z.object({ user: User, token: z.string() });
const userOnly = () => z.object({ user: User });
const badToken = { 400: { description: "The token is unknown, already used or expired.", codes: ["INVALID_TOKEN"] } } satisfies Responses;

export function registerDoc(): OperationDoc {
  return {
    tag,
    summary: "Create a PERSONAL or BUSINESS account",
    description: "Sends a verification email. companyName is required for BUSINESS.",
    responses: { 201: { description: "Created", data: userAndToken() }, 409: { description: "Email taken", codes: ["EMAIL_TAKEN"] } },
  };
}

export function loginDoc(): OperationDoc {
  return {
    tag,
    summary: "Sign in and receive an account JWT (12 hours)",
    responses: {
      200: { description: "Signed in", data: userAndToken() },
      401: { description: "Unknown email or wrong password (one answer for both)", codes: ["INVALID_CREDENTIALS"] },
    },
  };
}

export function verifyEmailDoc(): OperationDoc {
  return { tag, summary: "Confirm the email address with the mailed token", responses: { 200: { description: "Verified", data: userOnly() }, ...badToken } };
}

export function resendVerificationDoc(): OperationDoc {
  return {
    tag,
    summary: "Mail a new verification link",
    responses: { 202: { description: "Sent" }, 409: { description: "Already verified", codes: ["ALREADY_VERIFIED"] } },
  };
}

export function forgotPasswordDoc(): OperationDoc {
  return {
    tag,
    summary: "Mail a password-reset link",
    description: "Always 202 with the same body, whether or not the address has an account; the lookup and the mail happen after the answer, so its timing does not tell either.",
    responses: { 202: { description: "Accepted" } },
  };
}

export function resetPasswordDoc(): OperationDoc {
  return { tag, summary: "Set a new password with the mailed token; signs out everywhere", responses: { 200: { description: "Password changed" }, ...badToken } };
}

export function confirmEmailChangeDoc(): OperationDoc {
  return {
    tag,
    summary: "Confirm a new email address with the token mailed to it; signs out everywhere",
    responses: { 200: { description: "Email changed", data: userOnly() }, ...badToken, 409: { description: "Email taken", codes: ["EMAIL_TAKEN"] } },
  };
}

export function logoutDoc(): OperationDoc {
  return { tag, summary: "Sign out everywhere: every token issued so far stops working", responses: { 204: { description: "Signed out" } } };
}
