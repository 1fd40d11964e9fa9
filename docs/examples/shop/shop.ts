// A tiny merchant: a checkout page with the drop-in and a server with age-verification-node, the way a
// shop would copy them (docs/drop-in.md). One command against `npm run dev`:
//
//   npx tsx docs/examples/shop/shop.ts [--base-url http://localhost:8787] [--port 4242]
//
// then open http://127.0.0.1:4242. Without AGE_API_KEY and AGE_SIGNING_SECRET it makes a test key on the
// development server (dev-test-key.ts). The shop opens a session per order on its server (the API key
// never reaches the browser), renders <age-verification url="…verification_url…">, verifies the signed
// callback, and, when the page's drop-in says the person answered, confirms with the callback it holds
// or a poll, and checks the receipt against the service's published keys.
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { parseArgs } from "node:util";
import { createClient, fetchJwks, verifyCallback, verifyReceipt, type PolledSession } from "../../../packages/age-verification-node/src/index";
import { devTestKey } from "./dev-test-key";

const { values } = parseArgs({ options: { "base-url": { type: "string" }, port: { type: "string" } } });
const service = (values["base-url"] ?? process.env.BASE_URL ?? "http://localhost:8787").replace(/\/$/, "");
const port = Number(values.port ?? process.env.PORT ?? 4242);
const shopUrl = `http://127.0.0.1:${port}`;

const credentials =
  process.env.AGE_API_KEY && process.env.AGE_SIGNING_SECRET
    ? { apiKey: process.env.AGE_API_KEY, signingSecret: process.env.AGE_SIGNING_SECRET }
    : await devTestKey(service);
// Server-side only. During a signing-secret rotation, list the new and the old secret here.
const signingSecrets = [credentials.signingSecret];
const age = createClient({ baseUrl: service, apiKey: credentials.apiKey });

type Order = { id: string; sessionId: string; verificationUrl: string; callback: PolledSession | null };
const orders = new Map<string, Order>();
const orderOfSession = new Map<string, Order>();

// The checkout page allows scripts and reads from itself and the service: all the drop-in needs.
const CSP = `default-src 'none'; script-src 'self' ${service}; connect-src 'self' ${service}; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function checkoutPage(order: Order): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Checkout: Example Wine Shop</title>
<link rel="stylesheet" href="/shop.css">
<script type="module" src="${escape(service)}/assets/age-verification.browser.js"></script>
<script type="module" src="/checkout.js"></script>
</head>
<body data-order="${escape(order.id)}">
<main>
<h1>Checkout</h1>
<p>Order ${escape(order.id)}: one bottle of Côtes du Rhône, €14.90. This product needs an age check.</p>
<age-verification url="${escape(order.verificationUrl)}"></age-verification>
<p id="confirmation" role="status"></p>
</main>
</body>
</html>`;
}

/** What the shop's server knows of an order's age check: the callback it verified, else a fresh poll. */
async function confirmAge(order: Order) {
  const session = order.callback ?? (await age.pollSession(order.sessionId));
  let receiptVerified = false;
  if (session.receipt) {
    const claims = await verifyReceipt(session.receipt, await fetchJwks(service), { issuer: service });
    receiptVerified = claims.session_id === order.sessionId && claims.outcome === session.status;
  }
  return { status: session.status, confirmed_by: order.callback ? "callback" : "poll", livemode: session.livemode, receipt_verified: receiptVerified };
}

async function rawBody(request: IncomingMessage): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of request) chunks.push(chunk);
  return new TextDecoder().decode(new Uint8Array(chunks.flatMap((c) => [...c])));
}

const send = (response: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}) =>
  response.writeHead(status, { "content-type": type, "cache-control": "no-store", ...headers }).end(body);

async function handle(request: IncomingMessage, response: ServerResponse) {
  const url = new URL(request.url ?? "/", shopUrl);
  const orderPath = /^\/orders\/([\w-]+)(\/age)?$/.exec(url.pathname);

  if (request.method === "GET" && url.pathname === "/") {
    // A new order: open its session on the server. The order id is the Idempotency-Key, so a retry after
    // a timeout gets the same session back instead of a second one.
    const id = `order-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
    const { session } = await age.openSession(
      { age_required: 18, callback_url: `${shopUrl}/hooks/age`, return_url: `${shopUrl}/orders/${id}`, reference: id },
      { idempotencyKey: id },
    );
    const order: Order = { id, sessionId: session.session_id, verificationUrl: session.verification_url, callback: null };
    orders.set(id, order);
    orderOfSession.set(order.sessionId, order);
    return send(response, 303, "text/plain", "", { location: `/orders/${id}` });
  }
  if (request.method === "GET" && orderPath) {
    const order = orders.get(orderPath[1] ?? "");
    if (!order) return send(response, 404, "text/plain", "no such order");
    if (orderPath[2]) return send(response, 200, "application/json", JSON.stringify(await confirmAge(order)));
    return send(response, 200, "text/html; charset=utf-8", checkoutPage(order), { "content-security-policy": CSP });
  }
  if (request.method === "POST" && url.pathname === "/hooks/age") {
    // Verify on the raw body, before parsing. A forged or stale callback is refused.
    const body = await rawBody(request);
    try {
      const event = await verifyCallback(body, request.headers, signingSecrets);
      if (event.type !== "age_verification.test") {
        const order = orderOfSession.get(event.data.session_id);
        if (order) order.callback = event.data;
      }
      return send(response, 204, "text/plain", "");
    } catch {
      return send(response, 400, "text/plain", "invalid signature");
    }
  }
  if (request.method === "GET" && url.pathname === "/checkout.js") {
    return send(response, 200, "text/javascript; charset=utf-8", new TextDecoder().decode(await readFile(new URL("./checkout.browser.js", import.meta.url).pathname)));
  }
  if (request.method === "GET" && url.pathname === "/shop.css") {
    return send(response, 200, "text/css; charset=utf-8", new TextDecoder().decode(await readFile(new URL("./shop.css", import.meta.url).pathname)));
  }
  // No icon: an empty answer rather than a 404 in the browser's console.
  if (request.method === "GET" && url.pathname === "/favicon.ico") return send(response, 204, "image/x-icon", "");
  return send(response, 404, "text/plain", "not found");
}

const server = createServer((request, response) => {
  handle(request, response).catch((error: unknown) => send(response, 500, "text/plain", error instanceof Error ? error.message : "error"));
});
server.listen(port, "127.0.0.1", () => process.stdout.write(`example shop on ${shopUrl} (age verification: ${service})\n`));
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.close(() => process.exit(0)));
