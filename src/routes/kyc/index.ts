// KYC for the service's own apps (docs/api-contract.md §KYC, tag KYC, Bearer), mounted at /api/kyc: applicant (and its
// correction after a refused check), SDK
// token, submitting the SDK's uploads for a check, status, and the development sandbox's stand-in for
// the provider finishing a check.
import { areaOf } from "../named-route";
import { completeSandboxCheckRoute } from "./complete-sandbox-check";
import { correctApplicantRoute } from "./correct-applicant";
import { createApplicantRoute } from "./create-applicant";
import { createSdkTokenRoute } from "./create-sdk-token";
import { readKycStatusRoute } from "./read-kyc-status";
import { submitCheckRoute } from "./submit-check";

export const kycRoutes = areaOf(
  createApplicantRoute,
  correctApplicantRoute,
  createSdkTokenRoute,
  submitCheckRoute,
  readKycStatusRoute,
  completeSandboxCheckRoute,
);
