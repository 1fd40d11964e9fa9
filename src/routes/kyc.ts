// KYC for the service's own apps (CONTRACT §7, tag KYC, Bearer): applicant, SDK token, submitting the
// SDK's uploads for a check, status, and the development sandbox's stand-in for the provider finishing
// a check.
import { Hono } from "hono";
import * as z from "zod";
import {
  completeSandboxCheck,
  createApplicant,
  createSdkToken,
  CreateApplicantBody,
  KycStatus,
  kycStatus,
  MAX_AGE_YEARS,
  submitCheck,
} from "../domain/kyc";
import { countAccountUse } from "../domain/limits";
import type { AppEnv } from "../http/app-env";
import { developmentOnly } from "../http/guards";
import { describe, type ErrorResponseDoc } from "../http/openapi-meta";
import { requireUser } from "../http/require-user";
import { ok } from "../http/respond";
import { SANDBOX_DOCUMENT_NUMBER } from "../providers/sandbox";
import { jsonBody } from "../http/validate";

const Applicant = z.object({ applicantId: z.string() });
const SdkToken = z.object({ token: z.string(), applicantId: z.string() });
const SandboxCompleteBody = z.object({
  result: z.enum(["clear", "consider"]).default("clear").describe("The check result to simulate; clear by default."),
  document_number: z
    .string()
    .regex(SANDBOX_DOCUMENT_NUMBER)
    .optional()
    .describe("The document number the simulated check reads (A-Z, 0-9, up to 20); by default one of this applicant's own. Give the same number to two accounts to simulate a reused document."),
});

const PROVIDER_ERROR = { description: "The identity provider failed or is unreachable.", codes: ["PROVIDER_ERROR"] } satisfies ErrorResponseDoc<502>;

export const kycRoutes = new Hono<AppEnv>()
  .post(
    "/create-applicant",
    describe(OPENAPI_METADATA && {
      tag: "KYC",
      summary: "Create the identity-verification applicant of the signed-in account",
      description:
        "One applicant per account. Name and address are sent to the provider and not stored by the service. " +
        `\`dob\` must be a real past date, at most ${MAX_AGE_YEARS} years ago; \`address\` is optional, and when given needs ` +
        "`country` (ISO 3166-1 alpha-3) and `postcode`.",
      responses: {
        201: { description: "Applicant created.", data: Applicant },
        409: { description: "The account already has an applicant.", codes: ["APPLICANT_EXISTS"] },
        502: PROVIDER_ERROR,
      },
    }),
    requireUser,
    jsonBody(CreateApplicantBody),
    async (c) => {
      const created = await createApplicant(c.var.ctx, c.var.user.id, c.req.valid("json"));
      return ok(c, created, 201);
    },
  )
  .get(
    "/sdk-token",
    describe(OPENAPI_METADATA && {
      tag: "KYC",
      summary: "Get an SDK token for the provider's capture SDK",
      responses: {
        200: { description: "A short-lived SDK token and the applicant it is for.", data: SdkToken },
        409: { description: "Create an applicant first.", codes: ["APPLICANT_REQUIRED"] },
        429: { description: "Too many tokens for this account (production: 10 an hour); Retry-After says when the window ends.", codes: ["RATE_LIMITED"] },
        502: PROVIDER_ERROR,
      },
    }),
    requireUser,
    async (c) => {
      await countAccountUse(c.var.ctx, "sdkToken", c.var.user.id);
      return ok(c, await createSdkToken(c.var.ctx, c.var.user.id));
    },
  )
  .post(
    "/submit",
    describe(OPENAPI_METADATA && {
      tag: "KYC",
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
        429: { description: "Too many submissions for this account (production: 3 a day); Retry-After says when the window ends.", codes: ["RATE_LIMITED"] },
        502: PROVIDER_ERROR,
      },
    }),
    requireUser,
    async (c) => {
      await countAccountUse(c.var.ctx, "kycCheck", c.var.user.id);
      return ok(c, await submitCheck(c.var.ctx, c.var.user.id), 202);
    },
  )
  .get(
    "/status",
    describe(OPENAPI_METADATA && {
      tag: "KYC",
      summary: "KYC status of the signed-in account",
      description: "NOT_STARTED before an applicant exists; `verifiedAt` is set only while VERIFIED.",
      responses: { 200: { description: "The account's KYC status.", data: KycStatus } },
    }),
    requireUser,
    async (c) => ok(c, await kycStatus(c.var.ctx, c.var.user.id)),
  )
  .post(
    "/sandbox/complete",
    describe(OPENAPI_METADATA && {
      tag: "KYC",
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
    }),
    developmentOnly,
    requireUser,
    jsonBody(SandboxCompleteBody),
    async (c) => {
      const { result, document_number } = c.req.valid("json");
      return ok(c, await completeSandboxCheck(c.var.ctx, c.var.user.id, result, document_number));
    },
  );
