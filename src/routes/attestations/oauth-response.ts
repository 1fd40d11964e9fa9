// The issuance endpoints a wallet's OAuth library calls (/token, /nonce, /credential) answer in OAuth's
// own forms (docs/attestations.md): their errors as `{error, error_description}` (RFC 6749 §5.2, RFC 6750
// §3.1), never stored by a cache (RFC 6749 §5.1). Their bodies are read here, bounded, since they are
// outside /api and its body guard. The service's own errors (404 where nothing is issued, 429, 503)
// keep the envelope.
import type { Context } from "hono";
import { ApiError } from "../../errors";
import { OAuthError } from "../../domain/attestations";
import { parseJsonBytes } from "../../lib/json-body";
import type { AppEnv } from "../../http/app-env";

/** Far above any honest request: 30 proofs of about 600 bytes, or a short form. */
const MAX_BODY_BYTES = 64 * 1024;

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

export const oauthJson = (c: Context<AppEnv>, body: unknown, status: 200 | 201 = 200) => c.json(body, status, NO_STORE);

/** Runs an OAuth endpoint's work, answering an OAuthError in OAuth's form. */
export async function asOAuth(c: Context<AppEnv>, work: () => Promise<Response>): Promise<Response> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    const headers: Record<string, string> = { ...NO_STORE };
    if (error.status === 401) headers["WWW-Authenticate"] = `Bearer error="${error.error}"`;
    return c.json({ error: error.error, error_description: error.description }, error.status, headers);
  }
}

/** The body, read chunk by chunk and given up past the bound: one sent without a length is never buffered whole. */
async function boundedBytes(c: Context<AppEnv>): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(c.req.header("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw new ApiError("PAYLOAD_TOO_LARGE");
  const reader = c.req.raw.body?.getReader();
  const bytes = new Uint8Array(MAX_BODY_BYTES);
  let length = 0;
  if (!reader) return bytes.slice(0, 0);
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) return bytes.slice(0, length);
    if (length + chunk.value.byteLength > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new ApiError("PAYLOAD_TOO_LARGE");
    }
    bytes.set(chunk.value, length);
    length += chunk.value.byteLength;
  }
}

/** An application/x-www-form-urlencoded body (RFC 6749 §3.2) as its parameters; a repeated one is refused (§3.1). */
export async function formBody(c: Context<AppEnv>): Promise<Record<string, string>> {
  if (!/^application\/x-www-form-urlencoded\s*(;.*)?$/i.test(c.req.header("content-type") ?? "")) {
    throw new OAuthError("invalid_request", "The body must be application/x-www-form-urlencoded.");
  }
  const params = new URLSearchParams(new TextDecoder().decode(await boundedBytes(c)));
  const form: Record<string, string> = {};
  for (const [name, value] of params) {
    if (name in form) throw new OAuthError("invalid_request", `${name} is repeated.`);
    form[name] = value;
  }
  return form;
}

/** A JSON body, or invalid_credential_request. */
export async function jsonRequestBody(c: Context<AppEnv>): Promise<unknown> {
  const parsed = parseJsonBytes(await boundedBytes(c));
  if (!parsed) throw new OAuthError("invalid_credential_request", "The body must be JSON.");
  return parsed.value;
}

/** The access token of an `Authorization: Bearer` header, or null. */
export const bearerToken = (c: Context<AppEnv>): string | null =>
  /^Bearer ([A-Za-z0-9_-]{1,256})$/i.exec(c.req.header("authorization") ?? "")?.[1] ?? null;
