// The development provider: no network and no account. Its ids carry what a real provider would
// remember: the applicant id ends with the date of birth typed at creation (development data only), and a
// sandbox check id names its applicant and the result it stands for. An id cannot change, so only a
// corrected date of birth is kept in D1 (sandbox_applicant_updates), as Onfido keeps an updated applicant.
import { randomBytes } from "../lib/crypto";
import { toHex } from "../lib/encoding";
import {
  providerError,
  type ApplicantInput,
  type IdentityProvider,
  type ProviderCheck,
  type StartedCheck,
  type Verdict,
} from "../context/identity-provider";

export type SandboxResult = "clear" | "consider";

const APPLICANT = /^sbxapp_[0-9a-f]{18}_(\d{4})(\d{2})(\d{2})$/;
const CHECK = /^sbxchk_[0-9a-f]{18}_(clear|consider)_(sbxapp_([0-9a-f]{18})_\d{8})(?:_doc_([A-Z0-9]{1,20}))?$/;
/** The shape of a sandbox document number (what `sandbox/complete` accepts to simulate a reused document). */
export const SANDBOX_DOCUMENT_NUMBER = /^[A-Z0-9]{1,20}$/;
/** The sandbox's documents are all from one country; the number alone tells them apart. */
export const SANDBOX_ISSUING_COUNTRY = "GBR";

const randomPart = () => toHex(randomBytes(9));

/** A check id for the sandbox to "complete": what `POST /api/kyc/sandbox/complete` hands to the webhook path. */
export const sandboxCheckId = (applicantId: string, result: SandboxResult, documentNumber?: string): string =>
  `sbxchk_${randomPart()}_${result}_${applicantId}${documentNumber ? `_doc_${documentNumber}` : ""}`;

export class SandboxProvider implements IdentityProvider {
  readonly name = "sandbox" as const;

  /** `db` is where the sandbox records the applicants it deletes (sandbox_deleted_applicants). */
  constructor(private readonly db?: D1Database) {}

  async createApplicant(input: ApplicantInput): Promise<string> {
    return `sbxapp_${randomPart()}_${input.dob.replaceAll("-", "")}`;
  }

  /** Remembers the corrected date of birth (the only detail the sandbox "checks"); the name goes nowhere. */
  async updateApplicant(applicantId: string, input: ApplicantInput): Promise<void> {
    if (!APPLICANT.test(applicantId) || !this.db) throw providerError();
    await this.db
      .prepare(
        "INSERT INTO sandbox_applicant_updates (applicant_id, dob, updated_at) VALUES (?, ?, ?) " +
          "ON CONFLICT (applicant_id) DO UPDATE SET dob = excluded.dob, updated_at = excluded.updated_at",
      )
      .bind(applicantId, input.dob, new Date().toISOString())
      .run();
  }

  /** The applicant's date of birth: the corrected one if any, else the one its id carries. */
  private async dateOfBirth(applicantId: string, fromId: RegExpExecArray): Promise<string> {
    const updated = this.db
      ? await this.db.prepare("SELECT dob FROM sandbox_applicant_updates WHERE applicant_id = ?").bind(applicantId).first<{ dob: string }>()
      : null;
    return updated?.dob ?? `${fromId[1]}-${fromId[2]}-${fromId[3]}`;
  }

  async createSdkToken(applicantId: string): Promise<string> {
    if (!APPLICANT.test(applicantId)) throw providerError();
    return `sandbox_sdk_${randomPart()}${randomPart()}`;
  }

  /** Like `sandbox/complete` with a clear result: the sandbox has no documents to look at, so it is done at once. */
  async createCheck(applicantId: string): Promise<StartedCheck> {
    if (!APPLICANT.test(applicantId)) throw providerError();
    return { checkId: sandboxCheckId(applicantId, "clear"), complete: true };
  }

  /** Records the deletion and forgets a corrected date of birth, as Onfido would forget the applicant; deleting twice is one record. */
  async deleteApplicant(applicantId: string): Promise<void> {
    if (!APPLICANT.test(applicantId) || !this.db) throw providerError();
    await this.db.batch([
      this.db
        .prepare("INSERT INTO sandbox_deleted_applicants (applicant_id, deleted_at) VALUES (?, ?) ON CONFLICT (applicant_id) DO NOTHING")
        .bind(applicantId, new Date().toISOString()),
      this.db.prepare("DELETE FROM sandbox_applicant_updates WHERE applicant_id = ?").bind(applicantId),
    ]);
  }

  async readCheck(checkId: string): Promise<ProviderCheck> {
    const check = CHECK.exec(checkId);
    const applicant = check ? APPLICANT.exec(check[2]!) : null;
    // An id the sandbox never issued is what a real provider answers with 404.
    if (!check || !applicant) throw providerError();
    // Without a number given, each applicant holds a document of its own (its random part).
    const document = { number: check[4] ?? check[3]!.toUpperCase(), issuingCountry: SANDBOX_ISSUING_COUNTRY };
    const verdict = async (): Promise<Verdict> =>
      check[1] === "clear"
        ? { result: "clear", dateOfBirth: await this.dateOfBirth(check[2]!, applicant), document }
        : { result: "rejected" };
    return { checkId, applicantId: check[2]!, complete: true, verdict };
  }
}
