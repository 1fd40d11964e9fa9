// The identity-provider port: what the KYC domain needs from a provider, in our words. Adapters
// (Onfido, the sandbox) translate to and from the provider's wire format.
import { ApiError } from "../errors";

export type ApplicantInput = {
  firstName: string;
  lastName: string;
  /** YYYY-MM-DD as the user typed it; never taken as verified outside the sandbox. */
  dob: string;
  address?: { country: string; postcode: string; street?: string; town?: string };
};

/**
 * What a completed check decided, reduced to what age verification needs:
 * - `clear`: the check and its document report are clear, and the report read a date of birth;
 * - `rejected`: the check completed with any other outcome;
 * - `incomplete`: the check has not finished (a stale or early event), so nothing may change yet.
 */
export type CheckVerdict =
  | { checkId: string; applicantId: string; verdict: "clear"; dateOfBirth: string }
  | { checkId: string; applicantId: string; verdict: "rejected" | "incomplete" };

export interface IdentityProvider {
  readonly name: "onfido" | "sandbox";
  /** Creates the applicant at the provider; returns the provider's applicant id. */
  createApplicant(input: ApplicantInput): Promise<string>;
  /** A short-lived token the provider's SDK uses to upload documents for this applicant. */
  createSdkToken(applicantId: string): Promise<string>;
  /** Reads a check (and, when needed, its document report) and returns its verdict. */
  readCheckVerdict(checkId: string): Promise<CheckVerdict>;
}

/** Any provider failure: the provider's own status and body stay in our logs' codes, never in a response. */
export const providerError = () =>
  new ApiError("PROVIDER_ERROR", 502, "The identity provider could not complete the request. Try again shortly.");
