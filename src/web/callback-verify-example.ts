// The callback verification example shown on /docs: dependency-free Node, so a merchant can read every
// step of Standard Webhooks v1 (docs/api-contract.md §Callbacks). test/node/callback-verify-example.test.ts runs this very
// text against the service's own signer, so the page never shows an example that does not verify.
export const CALLBACK_VERIFY_EXAMPLE = `import { createHmac, timingSafeEqual } from "node:crypto";

// secret: "whsec_…" from the console; headers: the request's (lower-case names);
// body: the raw request body as a string, before any JSON parsing.
function verifyCallback(secret, headers, body) {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  // Replays: refuse an attempt more than five minutes from this clock.
  if (!id || !timestamp || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(\`\${id}.\${timestamp}.\${body}\`).digest();
  // One "v1,<base64>" entry per signing secret (two during a rotation's grace): one match is enough.
  return (headers["webhook-signature"] ?? "").split(" ").some((entry) => {
    const [version, signature] = entry.split(",");
    const given = Buffer.from(signature ?? "", "base64");
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

// Express: app.post("/age-callback", express.text({ type: "application/json" }), (req, res) => {
//   if (!verifyCallback(signingSecret, req.headers, req.body)) return res.sendStatus(400);  // your key's whsec_… secret
//   … de-duplicate on req.headers["webhook-id"], handle JSON.parse(req.body), then res.sendStatus(204);
// });`;
