// Onfido API v3.6 adapter: applicants, SDK tokens, checks and reports. Every failure (network,
// timeout, non-2xx, unexpected body) becomes 502 PROVIDER_ERROR; Onfido's body is never passed on,
// since it can echo personal data back.
import * as z from "../lib/lazy-zod";
import { log } from "../lib/log";
import { isCalendarDate } from "../lib/calendar-date";
import {
  providerError,
  type ApplicantInput,
  type IdentityProvider,
  type ProviderCheck,
  type StartedCheck,
  type Verdict,
} from "../context/identity-provider";

/** Per call. A webhook makes at most two rounds of calls and must answer inside Onfido's timeout. */
const CALL_TIMEOUT_MS = 5_000;
/** A check carries a handful of reports; more than this is not a check we understand. */
const MAX_REPORTS = 10;

const Applicant = z.object({ id: z.string().check(z.minLength(1)) });
const SdkToken = z.object({ token: z.string().check(z.minLength(1)) });
const Check = z.object({
  id: z.string().check(z.minLength(1)),
  applicant_id: z.string().check(z.minLength(1)),
  status: z.string(),
  result: z.nullish(z.string()),
  report_ids: z._default(z.array(z.string().check(z.minLength(1))).check(z.maxLength(MAX_REPORTS)), []),
});
const Report = z.object({
  id: z.string().check(z.minLength(1)),
  name: z.string(),
  status: z.optional(z.string()),
  result: z.nullish(z.string()),
  properties: z.nullish(
    z.looseObject({
      date_of_birth: z.nullish(z.string()),
      issuing_country: z.nullish(z.string()),
      document_numbers: z.nullish(z.array(z.looseObject({ type: z.nullish(z.string()), value: z.nullish(z.string()) }))),
    }),
  ),
});

type Operation = "create_applicant" | "update_applicant" | "sdk_token" | "create_check" | "read_check" | "read_report" | "delete_applicant";

/**
 * The reports a check runs (classic flow, API v3.6): the document gives the date of birth, the face
 * report ties the document to the person in front of the camera. The SDK's default face step takes a
 * photo, hence the photo variant.
 */
export const CHECK_REPORTS = ["document", "facial_similarity_photo"] as const;
/** Any facial similarity variant (photo, photo_fully_auto, video, motion) binds the document to a face. */
const FACE_REPORT = /^facial_similarity_/;

/** The applicant's body, the same for creating and updating (Onfido API v3.6): only the address fields given. */
function applicantBody(input: ApplicantInput): Record<string, unknown> {
  const body: Record<string, unknown> = { first_name: input.firstName, last_name: input.lastName, dob: input.dob };
  if (input.address) {
    const { country, postcode, street, town } = input.address;
    body.address = { country, postcode, ...(street ? { street } : {}), ...(town ? { town } : {}) };
  }
  return body;
}

export class OnfidoProvider implements IdentityProvider {
  readonly name = "onfido" as const;

  constructor(
    private readonly baseUrl: string,
    private readonly apiToken: string,
  ) {}

  async createApplicant(input: ApplicantInput): Promise<string> {
    const applicant = await this.request("create_applicant", "POST", "/applicants", Applicant, applicantBody(input));
    return applicant.id;
  }

  /** PUT /applicants/{id} with the create body: Onfido answers the applicant, whose id must be the one asked for. */
  async updateApplicant(applicantId: string, input: ApplicantInput): Promise<void> {
    const applicant = await this.request(
      "update_applicant",
      "PUT",
      `/applicants/${encodeURIComponent(applicantId)}`,
      Applicant,
      applicantBody(input),
    );
    if (applicant.id !== applicantId) {
      log("warn", "provider updated another applicant", { provider: this.name });
      throw providerError();
    }
  }

  async createSdkToken(applicantId: string): Promise<string> {
    const sdk = await this.request("sdk_token", "POST", "/sdk_token", SdkToken, { applicant_id: applicantId });
    return sdk.token;
  }

  async createCheck(applicantId: string): Promise<StartedCheck> {
    const check = await this.request("create_check", "POST", "/checks", Check, {
      applicant_id: applicantId,
      report_names: [...CHECK_REPORTS],
    });
    if (check.applicant_id !== applicantId) {
      log("warn", "provider started a check for another applicant", { checkId: check.id });
      throw providerError();
    }
    return { checkId: check.id, complete: check.status === "complete" };
  }

  async readCheck(checkId: string): Promise<ProviderCheck> {
    const check = await this.request("read_check", "GET", `/checks/${encodeURIComponent(checkId)}`, Check);
    return {
      checkId: check.id,
      applicantId: check.applicant_id,
      complete: check.status === "complete",
      verdict: () => this.verdict(check),
    };
  }

  async deleteApplicant(applicantId: string): Promise<void> {
    // 204 when deleted; 404 when it already is (a retry after a lost answer): both are done.
    const response = await this.call("delete_applicant", "DELETE", `/applicants/${encodeURIComponent(applicantId)}`);
    await response.body?.cancel();
    if (response.ok || response.status === 404) return;
    log("warn", "provider answered with an error", { provider: this.name, operation: "delete_applicant", status: response.status });
    throw providerError();
  }

  private async verdict(check: z.infer<typeof Check>): Promise<Verdict> {
    // Only a clear check needs its report: the date of birth is taken from the document, not the applicant.
    if (check.result !== "clear") return { result: "rejected" };
    const reports = await Promise.all(
      check.report_ids.map((id) => this.request("read_report", "GET", `/reports/${encodeURIComponent(id)}`, Report)),
    );
    const document = reports.find((report) => report.name === "document");
    const dateOfBirth = document?.properties?.date_of_birth;
    if (document?.result !== "clear" || !dateOfBirth || !isCalendarDate(dateOfBirth)) {
      log("warn", "clear check without a clear document date of birth", { checkId: check.id });
      return { result: "rejected" };
    }
    // A document alone proves that someone holds it, not that they are its owner: a minor could show a
    // parent's passport. A check without a clear face match (one started elsewhere with a document
    // report only, say) does not verify an age.
    const faces = reports.filter((report) => FACE_REPORT.test(report.name));
    if (faces.length === 0 || faces.some((face) => face.result !== "clear")) {
      log("warn", "clear check without a clear facial similarity report", { checkId: check.id });
      return { result: "rejected" };
    }
    // The document number and issuing country become the identity fingerprint (one document, one account).
    const number = document.properties?.document_numbers?.find((entry) => entry.type === "document_number")?.value;
    const issuingCountry = document.properties?.issuing_country;
    if (!number || !issuingCountry)
      log("warn", "clear document report without a document number or issuing country", { checkId: check.id });
    return { result: "clear", dateOfBirth, document: number && issuingCountry ? { number, issuingCountry } : null };
  }

  private async request<S extends z.ZodMiniType>(
    operation: Operation,
    method: "GET" | "POST" | "PUT",
    path: string,
    schema: S,
    body?: unknown,
  ): Promise<z.infer<S>> {
    const response = await this.call(operation, method, path, body);
    if (!response.ok) {
      // Drain the body without reading it into a log: Onfido error bodies can quote the applicant's data.
      await response.body?.cancel();
      log("warn", "provider answered with an error", { provider: this.name, operation, status: response.status });
      throw providerError();
    }
    const parsed = schema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) {
      log("warn", "provider answer has an unexpected shape", { provider: this.name, operation });
      throw providerError();
    }
    return parsed.data;
  }

  /** The HTTP call itself; a network failure or timeout is a provider error, any answer is the caller's to read. */
  private async call(operation: Operation, method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown): Promise<Response> {
    try {
      return await fetch(`${this.baseUrl.replace(/\/+$/, "")}${path}`, {
        method,
        headers: {
          authorization: `Token token=${this.apiToken}`,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        // workerd has no redirect: "error"; a 3xx is then simply not ok, which is a provider error.
        redirect: "manual",
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
    } catch (error) {
      log("warn", "provider call failed", { provider: this.name, operation, error: (error as Error).name });
      throw providerError();
    }
  }
}
