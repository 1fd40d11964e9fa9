// Development only: a business account and a *test* API key on a local `npm run dev`, through the public
// API and the development outbox (as ../node/dev-merchant-key.ts, but in test mode, so the shop's
// sessions are answered on /verify's test chooser without an identity check). In production you create
// the key in /console and give it to the shop as AGE_API_KEY and AGE_SIGNING_SECRET.

async function call(baseUrl: string, method: string, path: string, body?: unknown, token?: string) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json().catch(() => null)) as { data?: any; error?: string } | null;
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${json?.error ?? ""}`);
  return json?.data;
}

export async function devTestKey(baseUrl: string): Promise<{ apiKey: string; signingSecret: string }> {
  const email = `shop-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const registered = await call(baseUrl, "POST", "/api/auth/register", { email, password: "example-merchant-password", userType: "BUSINESS", companyName: "Example Wine Shop" });
  const outbox = await call(baseUrl, "GET", `/api/dev/outbox?to=${encodeURIComponent(email)}`);
  const token = /[?&]token=([^\s&]+)/.exec(outbox?.messages?.[0]?.text ?? "")?.[1];
  if (!token) throw new Error(`no confirmation mail for ${email}: is ${baseUrl} a development server (npm run dev)?`);
  await call(baseUrl, "POST", "/api/auth/verify-email", { token: decodeURIComponent(token) });
  const key = await call(baseUrl, "POST", "/api/keys", { name: "example shop", mode: "test" }, registered.token);
  return { apiKey: key.apiKey, signingSecret: key.signingSecret };
}
