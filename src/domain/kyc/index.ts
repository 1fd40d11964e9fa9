// The identity check (docs/api-contract.md §KYC): applicants, SDK tokens, checks and their verified date of birth.
export { releaseIdentity } from "./identity-claims";
export {
  applyCompletedCheck,
  applyProviderCheck,
  completeSandboxCheck,
  createApplicant,
  CreateApplicantBody,
  createSdkToken,
  KycStatus,
  kycStatus,
  MAX_AGE_YEARS,
  submitCheck,
} from "./kyc";
export { correctApplicant } from "./applicant-correction";
