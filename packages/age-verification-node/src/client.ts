// The two calls a merchant's server makes with its API key: open a session (retry-safe with an
// Idempotency-Key) and poll it. Typed from the service's OpenAPI document (api-types.ts, a copy of
// docs/examples/node/api-types.ts kept equal by test/node/age-verification-node.test.ts).
import type { paths } from "./api-types.js";

type OpenOperation = paths["/api/age-verification/session"]["post"];
type PollOperation = paths["/api/age-verification/session/{id}"]["get"];

/** The body of an open request: `age_required` and `callback_url` are required. */
export type OpenSessionRequest = NonNullable<OpenOperation["requestBody"]>["content"]["application/json"];
/** The opened session: `verification_url` (for the drop-in or a redirect), `session_id`, `nonce`, … */
export type OpenedSession = OpenOperation["responses"][201]["content"]["application/json"]["data"];
/** The polled session: the same object as a callback's `data`. */
export type PolledSession = PollOperation["responses"][200]["content"]["application/json"]["data"];
export type SessionStatus = PolledSession["status"];

export type ClientOptions = {
  /** The service's base URL, e.g. https://age-verification.example.com */
  baseUrl: string;
  /** The API key (svc_sk_live_… or svc_sk_test_…): server-side only, never sent to a browser. */
  apiKey: string;
  /** A fetch to use instead of the global one (tests, proxies). */
  fetch?: typeof fetch;
};

/** An error answer of the API: its HTTP status and the envelope's machine code (`VALIDATION_FAILED`, …). */
export class AgeVerificationError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors: readonly { path: string; message: string }[] = [],
  ) {
    super(`${status} ${code}: ${message}`);
    this.name = "AgeVerificationError";
  }
}

export type AgeVerificationClient = {
  /**
   * Opens a session. Pass one `idempotencyKey` per logical request (your order id, or a UUID you keep with
   * it): a retry after a timeout with the same key and body answers the same session (`replayed: true`).
   */
  openSession(request: OpenSessionRequest, options?: { idempotencyKey?: string }): Promise<{ session: OpenedSession; replayed: boolean }>;
  /** Polls a session: the fallback when a callback is late, and the way to confirm what a browser said. */
  pollSession(sessionId: string): Promise<PolledSession>;
};

export function createClient(options: ClientOptions): AgeVerificationClient {
  const send = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/$/, "");
  const headers = { "x-api-key": options.apiKey, accept: "application/json" };

  async function call<T>(path: string, init: RequestInit): Promise<{ data: T; response: Response }> {
    const response = await send(`${base}${path}`, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
    const body = (await response.json().catch(() => null)) as {
      success?: boolean;
      data?: T;
      error?: string;
      message?: string;
      errors?: { path: string; message: string }[];
    } | null;
    if (!response.ok || body?.success !== true) {
      throw new AgeVerificationError(
        response.status,
        body?.error ?? "UNEXPECTED_RESPONSE",
        body?.message ?? response.statusText,
        body?.errors ?? [],
      );
    }
    return { data: body.data as T, response };
  }

  return {
    async openSession(request, { idempotencyKey } = {}) {
      const { data, response } = await call<OpenedSession>("/api/age-verification/session", {
        method: "POST",
        headers: { "content-type": "application/json", ...(idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey }) },
        body: JSON.stringify(request),
      });
      return { session: data, replayed: response.headers.get("idempotent-replayed") === "true" };
    },
    async pollSession(sessionId) {
      return (await call<PolledSession>(`/api/age-verification/session/${encodeURIComponent(sessionId)}`, { method: "GET" })).data;
    },
  };
}
