// Request helpers over the Worker's own fetch handler (the same app the runtime serves).
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../src/index";

export const BASE = "https://avs.test";

export type Envelope<T = any> = {
  success: boolean;
  data?: T;
  message?: string;
  error?: string;
  errors?: { path: string; message: string }[];
};

export type CallOptions = {
  body?: unknown;
  rawBody?: BodyInit;
  token?: string;
  apiKey?: string;
  headers?: Record<string, string>;
};

/** Builds the request the options describe (credential headers, JSON body). */
let defaultAddress = 0;

export function buildRequest(method: string, path: string, options: CallOptions = {}): Request {
  // A client address of its own unless the test names one: the per-address limits (login: 20 a minute
  // from one address) must not couple unrelated tests through one shared "unknown" address.
  const headers: Record<string, string> = {
    "cf-connecting-ip": `203.0.113.${(++defaultAddress % 250) + 1}-${Date.now()}`,
    ...options.headers,
  };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.apiKey) headers["x-api-key"] = options.apiKey;
  let body: BodyInit | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  return new Request(`${BASE}${path}`, { method, headers, body });
}

/** The response with its body parsed as the envelope (undefined when it is not JSON). */
export async function readResponse<T = any>(response: Response) {
  const text = await response.text();
  let json: Envelope<T> | undefined;
  try {
    json = JSON.parse(text) as Envelope<T>;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, body: json as Envelope<T>, text };
}

/** A request to the Worker as deployed: its own fetch handler, with the configured bindings. */
export async function call<T = any>(method: string, path: string, options: CallOptions = {}) {
  return readResponse<T>(await SELF.fetch(buildRequest(method, path, options)));
}

/**
 * Like call, through the Worker's fetch handler with an execution context of the test's own, and only
 * once the work the handler deferred past its answer (waitUntil) has settled: for routes that mail in
 * the background (forgot-password), so the outbox is read after the mail is written, not raced.
 */
export async function callSettled<T = any>(method: string, path: string, options: CallOptions = {}) {
  const context = createExecutionContext();
  const response = await worker.fetch(buildRequest(method, path, options), env, context);
  const result = await readResponse<T>(response);
  await waitOnExecutionContext(context);
  return result;
}

export function expectError(result: { status: number; body: Envelope }, status: number, code: string): void {
  if (result.status !== status || result.body?.error !== code || result.body?.success !== false) {
    throw new Error(`expected ${status} ${code}, got ${result.status} ${JSON.stringify(result.body)}`);
  }
  if (!Array.isArray(result.body.errors) || typeof result.body.message !== "string") {
    throw new Error(`error envelope is incomplete: ${JSON.stringify(result.body)}`);
  }
}
