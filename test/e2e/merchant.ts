// The merchant's side of the browser tests, through the public JSON API only: a verified business
// account with an API key, sessions opened with it, and polls.
type Envelope<T> = { success: boolean; data: T; error?: string };

/**
 * `address`: the client address the server sees (CF-Connecting-IP), for a test that acts as many people,
 * each limited per address as people are (docs/limits.md).
 */
export async function api<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; apiKey?: string; address?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (options.address) headers["cf-connecting-ip"] = options.address;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.apiKey) headers["x-api-key"] = options.apiKey;
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Envelope<T> };
}

let counter = 0;
/** A client address of its own (TEST-NET-2), one per call. */
export const uniqueAddress = () => `198.51.100.${(++counter % 250) + 1}`;
export const uniqueEmail = (label: string) => `${label}-${Date.now()}-${++counter}@example.test`;

/** The action link of the newest mail sent to an address (development outbox). */
export async function mailedLink(baseUrl: string, email: string): Promise<string> {
  const { body } = await api<{ messages: { text: string }[] }>(baseUrl, "GET", `/api/dev/outbox?to=${encodeURIComponent(email)}`);
  const link = /https?:\/\/\S+\?token=\S+/.exec(body.data.messages[0]?.text ?? "")?.[0];
  if (!link) throw new Error(`no link mailed to ${email}`);
  return link;
}

export async function merchantWithKey(baseUrl: string, companyName = "Cellar & Co") {
  const email = uniqueEmail("merchant");
  const registered = await api<{ token: string }>(baseUrl, "POST", "/api/auth/register", {
    body: { email, password: "merchant-password-1", userType: "BUSINESS", companyName },
  });
  const token = registered.body.data.token;
  const link = new URL(await mailedLink(baseUrl, email));
  await api(baseUrl, "POST", "/api/auth/verify-email", { body: { token: link.searchParams.get("token") } });
  const created = await api<{ apiKey: string; signingSecret: string }>(baseUrl, "POST", "/api/keys", { token, body: { name: "e2e" } });
  if (created.status !== 201) throw new Error(`key creation failed: ${created.status}`);
  return { email, token, apiKey: created.body.data.apiKey, signingSecret: created.body.data.signingSecret };
}

/** `extra`: further open-request fields (return_url, locale, …). */
export async function openSession(baseUrl: string, apiKey: string, ageRequired = 18, extra: Record<string, unknown> = {}) {
  const opened = await api<{ session_id: string; nonce: string; expires_at: string }>(baseUrl, "POST", "/api/age-verification/session", {
    apiKey,
    body: { age_required: ageRequired, callback_url: "http://localhost:9/age-callback", ...extra },
  });
  if (opened.status !== 201) throw new Error(`session open failed: ${opened.status} ${JSON.stringify(opened.body)}`);
  return opened.body.data;
}

export const verifyLink = (baseUrl: string, session: { session_id: string; nonce: string }) =>
  `${baseUrl}/verify?session_id=${encodeURIComponent(session.session_id)}&nonce=${encodeURIComponent(session.nonce)}`;

export const poll = async (baseUrl: string, apiKey: string, sessionId: string) =>
  (
    await api<{ status: string; above_age_required: boolean; receipt_id: string | null }>(
      baseUrl,
      "GET",
      `/api/age-verification/session/${sessionId}`,
      { apiKey },
    )
  ).body.data;

/** A date of birth `years` years and a few days before today (UTC), as YYYY-MM-DD. */
export function birthDateYearsAgo(years: number): string {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() - years);
  date.setUTCDate(date.getUTCDate() - 10);
  return date.toISOString().slice(0, 10);
}
