// Development only: a business account and an API key on a local `npm run dev`, through the public API
// and the development outbox (production has no outbox: there you create the key in /console). Prints
// the API key and the signing secret as two lines `AGE_API_KEY=…` and `AGE_SIGNING_SECRET=…`, for
// the integration examples beside it.
//
//   npx tsx docs/examples/node/dev-merchant-key.ts [--base-url http://localhost:8787]
import createClient from "openapi-fetch";
import type { paths } from "./api-types";

const flag = process.argv.indexOf("--base-url");
const baseUrl = (flag > 0 ? process.argv[flag + 1] : undefined) ?? process.env.BASE_URL ?? "http://localhost:8787";
const client = createClient<paths>({ baseUrl });

const email = `shop-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const registered = await client.POST("/api/auth/register", {
  body: { email, password: "example-merchant-password", userType: "BUSINESS", companyName: "Example Shop" },
});
if (!registered.data) throw new Error(`register: ${registered.response.status} ${registered.error?.error}`);
const bearer = { Authorization: `Bearer ${registered.data.data.token}` };

const outbox = await client.GET("/api/dev/outbox", { params: { query: { to: email } } });
const link = /[?&]token=([^\s&]+)/.exec(outbox.data?.data.messages[0]?.text ?? "")?.[1];
if (!link) throw new Error(`no confirmation mail for ${email} (is this a development server?)`);
const confirmed = await client.POST("/api/auth/verify-email", { body: { token: decodeURIComponent(link) } });
if (!confirmed.data) throw new Error(`verify-email: ${confirmed.response.status}`);

const created = await client.POST("/api/keys", { body: { name: "integration example" }, headers: bearer });
if (!created.data) throw new Error(`create key: ${created.response.status} ${created.error?.error}`);
process.stdout.write(`AGE_API_KEY=${created.data.data.apiKey}\nAGE_SIGNING_SECRET=${created.data.data.signingSecret}\n`);
