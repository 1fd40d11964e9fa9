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

/** A check the provider has just started. `complete` is true when it finished at once (the sandbox). */
export type StartedCheck = { checkId: string; complete: boolean };

/** What a completed check decided, reduced to what age verification needs. */
/** The identity document behind a clear verdict: only ever turned into a keyed fingerprint, never stored. */
export type IdentityDocument = { number: string; issuingCountry: string };

/** What a completed check decided, reduced to what age verification needs. `document` is null when the provider did not read a number. */
export type Verdict = { result: "clear"; dateOfBirth: string; document: IdentityDocument | null } | { result: "rejected" };

/**
 * A check as the provider reports it. `complete` is false for a check that has not finished (a stale
 * or early event): nothing may change then. `verdict` reads what else it needs (Onfido: the document
 * report) only when called, so a redelivered event costs one provider call.
 * - clear: the check, its document report and its facial similarity report are clear, and the document
 *   report read a date of birth;
 * - rejected: the check completed with any other outcome.
 */
export type ProviderCheck = {
  checkId: string;
  applicantId: string;
  complete: boolean;
  verdict(): Promise<Verdict>;
};

export interface IdentityProvider {
  readonly name: "onfido" | "sandbox";
  /** Creates the applicant at the provider; returns the provider's applicant id. */
  createApplicant(input: ApplicantInput): Promise<string>;
  /**
   * Replaces the applicant's details with corrected ones (the same fields as its creation), keeping its
   * id: a person refused after a typo retries under the same applicant.
   */
  updateApplicant(applicantId: string, input: ApplicantInput): Promise<void>;
  /** A short-lived token the provider's SDK uses to upload documents for this applicant. */
  createSdkToken(applicantId: string): Promise<string>;
  /**
   * Starts a check of what the SDK uploaded for this applicant: a document report and a facial
   * similarity report (the face must match the document, so that nobody passes with someone else's).
   */
  createCheck(applicantId: string): Promise<StartedCheck>;
  readCheck(checkId: string): Promise<ProviderCheck>;
  /** Deletes the applicant and what the provider holds about it; an applicant already gone counts as deleted. */
  deleteApplicant(applicantId: string): Promise<void>;
}

/** Any provider failure: the provider's own status and body stay in our logs' codes, never in a response. */
export const providerError = () => new ApiError("PROVIDER_ERROR");
