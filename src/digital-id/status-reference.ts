// Where a credential's issuer publishes its status (IETF Token Status List, draft-ietf-oauth-status-list
// §6): `status.status_list {idx, uri}`, in an SD-JWT VC's issuer-signed claims (a JSON object) or in an
// mdoc's MSO (a CBOR map). The reference is signed with the credential; src/digital-id/status-list.ts
// fetches and checks the list. A `status` the service cannot read, or one naming no status list, is
// refused: the issuer says there is a status to check, and an answer that cannot be checked does not pass.
import type { Cbor } from "./cbor";
import { invalid } from "./failures";

/** A credential's place in a status list: the list's URI and the entry's index; `format` the token type its issuer publishes (JWT for SD-JWT VCs, CWT for mdocs). */
export type StatusReference = { uri: string; idx: number; format: "jwt" | "cwt" };

/** Longest list URI accepted (a credential carries it; the service fetches it). */
const MAX_URI_LENGTH = 2048;

const field = (container: unknown, name: string): unknown => {
  if (container instanceof Map) return container.get(name);
  if (typeof container === "object" && container !== null && !Array.isArray(container)) return (container as Record<string, unknown>)[name];
  return undefined;
};

const isContainer = (value: unknown) =>
  value instanceof Map || (typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array));

function reference(status: unknown, format: StatusReference["format"]): StatusReference | null {
  if (status === undefined) return null;
  const list = field(status, "status_list");
  if (!isContainer(status) || !isContainer(list)) throw invalid("the credential's status reference is not a status list {idx, uri}.");
  const idx = field(list, "idx");
  const uri = field(list, "uri");
  if (
    typeof idx !== "number" ||
    !Number.isSafeInteger(idx) ||
    idx < 0 ||
    typeof uri !== "string" ||
    uri.length === 0 ||
    uri.length > MAX_URI_LENGTH
  ) {
    throw invalid("the credential's status reference is not a status list {idx, uri}.");
  }
  return { uri, idx, format };
}

/** The SD-JWT VC's `status` claim (issuer-signed), or null when it has none. */
export const jsonStatusReference = (status: unknown): StatusReference | null => reference(status, "jwt");

/** The MSO's `status` entry, or null when it has none. */
export const cborStatusReference = (status: Cbor | undefined): StatusReference | null => reference(status, "cwt");
