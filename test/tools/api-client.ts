// A small fetch wrapper for the Node-side tools: JSON in, the envelope out, every call bounded in time.
export type ApiResponse = { status: number; body: any; headers: Headers };

export type RequestOptions = {
  body?: unknown;
  /** Account JWT, sent as a Bearer token. */
  token?: string;
  /** Merchant API key, sent as X-API-Key. */
  apiKey?: string;
  headers?: Record<string, string>;
};

export type Api = (method: string, path: string, options?: RequestOptions) => Promise<ApiResponse>;

export function apiClient(baseUrl: string, timeoutMs = 10_000): Api {
  const base = baseUrl.replace(/\/$/, "");
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.apiKey) headers["x-api-key"] = options.apiKey;
    const init: RequestInit = { method, headers, signal: AbortSignal.timeout(timeoutMs) };
    if (options.body !== undefined) {
      headers["content-type"] = "application/json";
      init.body = JSON.stringify(options.body);
    }
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, init);
    } catch (error) {
      const reason = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
      throw new Error(`cannot reach ${base} (${reason}); is \`npm run dev\` running there?`);
    }
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON (a CSV export, an HTML error page): keep the text.
    }
    return { status: response.status, body, headers: response.headers };
  };
}

/** Throws a readable error unless the response has the expected status. */
export function expectStatus(response: ApiResponse, expected: number): void {
  if (response.status === expected) return;
  const body = response.body;
  const detail = body && typeof body === "object" ? `${body.error ?? ""} ${body.message ?? ""}`.trim() : String(body).slice(0, 200);
  const retry = response.headers.get("retry-after");
  throw new Error(`expected ${expected}, got ${response.status}${detail ? ` ${detail}` : ""}${retry ? ` (Retry-After: ${retry}s)` : ""}`);
}
