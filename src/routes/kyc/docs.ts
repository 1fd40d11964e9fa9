// The OpenAPI prose of the KYC area, one function per operation. Called only behind
// `OPENAPI_METADATA &&`, so esbuild drops it from the Worker (the document is a static file).
import * as z from "../../lib/lazy-zod";
import { KycStatus, MAX_AGE_YEARS } from "../../domain/kyc";
import type { ErrorResponseDoc, OperationDoc } from "../../http/openapi-meta";

const tag = "KYC";
// Built inside the functions, so that none of this module is left in the Worker.
const applicant = () => z.object({ applicantId: z.string() });
const sdkToken = () => z.object({ token: z.string(), applicantId: z.string() });
const PROVIDER_ERROR = { description: "The identity provider failed or is unreachable.", codes: ["PROVIDER_ERROR"] } satisfies ErrorResponseDoc<502>;

export function createApplicantDoc(): OperationDoc {
  return {
    tag,
    summary: "Create the identity-verification applicant of the signed-in account",
    description:
      "One applicant per account. Name and address are sent to the provider and not stored by the service. " +
      `\`dob\` must be a real past date, at most ${MAX_AGE_YEARS} years ago; \`address\` is optional, and when given needs ` +
      "`country` (ISO 3166-1 alpha-3) and `postcode`.",
    responses: {
      201: { description: "Applicant created.", data: applicant() },
      409: { description: "The account already has an applicant.", codes: ["APPLICANT_EXISTS"] },
      502: PROVIDER_ERROR,
    },
  };
}

export function correctApplicantDoc(): OperationDoc {
  return {
    tag,
    summary: "Correct the applicant's name and date of birth after a refused check",
    description:
      "For a person whose check was refused (status REJECTED) because of a mistyped name or date of birth: " +
      "`create-applicant` answers `APPLICANT_EXISTS` once the applicant exists. The body is create-applicant's, " +
      "validated the same way. The service replaces the applicant's details at the provider (Onfido: " +
      "`PUT /applicants/{id}`; the sandbox then takes the corrected date as verified) and sets the status back " +
      "to PENDING with no check, as after create-applicant: the person uploads the documents again (or, in the " +
      "sandbox, chooses an outcome) and `POST /api/kyc/submit` starts a check of the corrected applicant. " +
      "Nothing typed is stored by the service. Refused for a verified account, while a check is running or " +
      "waiting for documents, and for a record refused because its document already verifies another account.",
    responses: {
      200: { description: "The details were corrected; the account's KYC status (PENDING).", data: KycStatus },
      409: {
        description:
          "No applicant yet (`APPLICANT_REQUIRED`), the identity is already verified (`KYC_ALREADY_VERIFIED`), the check " +
          "is not finished (`KYC_CHECK_PENDING`), or the document already verifies another account (`IDENTITY_ALREADY_VERIFIED`).",
        codes: ["APPLICANT_REQUIRED", "KYC_ALREADY_VERIFIED", "KYC_CHECK_PENDING", "IDENTITY_ALREADY_VERIFIED"],
      },
      502: PROVIDER_ERROR,
    },
  };
}

export function createSdkTokenDoc(): OperationDoc {
  return {
    tag,
    summary: "Get an SDK token for the provider's capture SDK",
    responses: {
      200: { description: "A short-lived SDK token and the applicant it is for.", data: sdkToken() },
      409: { description: "Create an applicant first.", codes: ["APPLICANT_REQUIRED"] },
      502: PROVIDER_ERROR,
    },
  };
}

export function submitCheckDoc(): OperationDoc {
  return {
    tag,
    summary: "Submit the SDK's uploads for checking",
    description:
      "Call it when the provider's SDK reports completion (Onfido Web SDK `onComplete`). The service then " +
      "creates the check at the provider (`document` and `facial_similarity_photo` reports) and answers 202 " +
      "with the status: PENDING until the provider's `check.completed` webhook decides VERIFIED or REJECTED, " +
      "which `GET /api/kyc/status` shows. Idempotent: while a check is running, or once the account is " +
      "VERIFIED, nothing new is started and the current status is returned. After a rejection, a new " +
      "submission (after new uploads) starts a new check. No body. With PROVIDER=sandbox the check is clear " +
      "at once (the typed date of birth is taken as verified), so the answer is already VERIFIED.",
    responses: {
      202: { description: "The check is running (or the account is already verified).", data: KycStatus },
      409: { description: "Create an applicant first.", codes: ["APPLICANT_REQUIRED"] },
      502: PROVIDER_ERROR,
    },
  };
}

export function readKycStatusDoc(): OperationDoc {
  return {
    tag,
    summary: "KYC status of the signed-in account",
    description: "NOT_STARTED before an applicant exists; `verifiedAt` is set only while VERIFIED.",
    responses: { 200: { description: "The account's KYC status.", data: KycStatus } },
  };
}

export function completeSandboxCheckDoc(): OperationDoc {
  return {
    tag,
    summary: "Sandbox: complete a check for the signed-in account's applicant",
    description:
      "Only with PROVIDER=sandbox (404 otherwise). Takes the date of birth given at applicant creation as " +
      "verified (`result: clear`, the default) or rejects (`consider`), through the same code path as a " +
      "provider webhook. The body is optional.",
    devOnly: true,
    responses: {
      200: { description: "The account's KYC status after the check.", data: KycStatus },
      404: { description: "Not in this configuration (NOT_FOUND)." },
      409: { description: "Create an applicant first.", codes: ["APPLICANT_REQUIRED"] },
    },
  };
}
