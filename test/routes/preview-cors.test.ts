// CORS on the first-screen read and nowhere else (docs/drop-in.md): the merchant's drop-in polls
// GET /api/age-verification/session/{id}/preview from the merchant's own origin with X-Session-Nonce.
// Only that route, only GET and that header, never with credentials.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BASE, call } from "../helpers/http";
import { seedMerchant } from "../helpers/seed";
import { openSession } from "../helpers/sessions";

const SHOP = "https://shop.example.com";
const previewPath = (id: string) => `/api/age-verification/session/${id}/preview`;

const preflight = (path: string, method = "GET", headers = "x-session-nonce") =>
  SELF.fetch(new URL(path, BASE), {
    method: "OPTIONS",
    headers: { origin: SHOP, "access-control-request-method": method, "access-control-request-headers": headers },
  });

describe("CORS on the session preview", () => {
  it("a preflight from any origin allows GET with X-Session-Nonce only, without credentials, cached for 10 minutes", async () => {
    const res = await preflight(previewPath("ses_000000000000000000000000"));
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toBe("GET");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toBe("x-session-nonce");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    expect(res.headers.get("access-control-max-age")).toBe("600");
  });

  it("the GET's answer is readable cross-origin: the status, with the nonce in the header", async () => {
    const merchant = await seedMerchant();
    const opened = await openSession(merchant.apiKey);
    const res = await call("GET", previewPath(opened.session_id), { headers: { origin: SHOP, "x-session-nonce": opened.nonce } });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe("PENDING");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("a wrong nonce is still the same 404 (readable, and telling nothing more)", async () => {
    const merchant = await seedMerchant();
    const opened = await openSession(merchant.apiKey);
    const res = await call("GET", previewPath(opened.session_id), { headers: { origin: SHOP, "x-session-nonce": "wrong" } });
    expect(res.status).toBe(404);
  });

  it("no other session route answers a cross-origin preflight or marks its answer: not the poll, not the request, not decline", async () => {
    const merchant = await seedMerchant();
    const opened = await openSession(merchant.apiKey);
    for (const [path, method] of [
      [`/api/age-verification/session/${opened.session_id}`, "GET"],
      [`/api/age-verification/session/${opened.session_id}/request`, "GET"],
      [`/api/age-verification/session/${opened.session_id}/decline`, "POST"],
      ["/api/age-verification/session", "POST"],
    ] as const) {
      const res = await preflight(path, method);
      expect(res.headers.get("access-control-allow-origin"), `${method} ${path}`).toBeNull();
    }
    const polled = await call("GET", `/api/age-verification/session/${opened.session_id}`, {
      apiKey: merchant.apiKey,
      headers: { origin: SHOP },
    });
    expect(polled.status).toBe(200);
    expect(polled.headers.get("access-control-allow-origin")).toBeNull();
  });
});
