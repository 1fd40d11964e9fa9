// The one rule for a JSON request body: which media types count as JSON, and how the bytes are read.
// The body guard applies it to every API route; the provider webhook applies it after checking the
// signature over the same bytes.

// The media types Hono's json validator reads (one optional "+json" suffix): a type the guard let
// through but the validator ignored would be read as an empty body.
const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;.*)?$/i;

export const isJsonMediaType = (contentType: string | undefined): boolean => JSON_MEDIA_TYPE.test(contentType ?? "");

/** The parsed value of strict UTF-8 JSON (a byte-order mark is not skipped), or undefined if it is not that. */
export function parseJsonBytes(bytes: ArrayBuffer | Uint8Array<ArrayBuffer>): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes)) };
  } catch {
    return undefined;
  }
}
