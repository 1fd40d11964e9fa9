// The callback verification example on /docs (src/web/callback-verify-example.ts) is run here, as text,
// against the service's own signer: it accepts a genuine callback (one signature or a rotation's two)
// and refuses a changed body, another secret, a stale timestamp and a missing signature.
import { describe, expect, it } from "vitest";
import { webhookHeaders } from "../../src/callbacks/sign";
import { CALLBACK_VERIFY_EXAMPLE } from "../../src/web/callback-verify-example";

// Node's modules through a dynamic import: the project's type checking has no Node types (test/node/asset-versions.test.ts).
const node = (name: string): Promise<any> => import(/* @vite-ignore */ name);
const [{ createHmac, timingSafeEqual }, { Buffer }] = await Promise.all(["node:crypto", "node:buffer"].map(node));

type Verify = (secret: string, headers: Record<string, string | undefined>, body: string) => boolean;

// The example's import line names what the function receives here; the rest runs as written.
const source = CALLBACK_VERIFY_EXAMPLE.replace(/^import .*\n/, "");
const verifyCallback = new Function("createHmac", "timingSafeEqual", "Buffer", `${source}\nreturn verifyCallback;`)(
  createHmac,
  timingSafeEqual,
  Buffer,
) as Verify;
const base64 = (byte: number): string => Buffer.alloc(32, byte).toString("base64");

const SECRET = `whsec_${base64(7)}`;
const OLD_SECRET = `whsec_${base64(9)}`;
const BODY = JSON.stringify({
  type: "age_verification.session.approved",
  timestamp: "2026-11-24T12:00:00.000Z",
  data: { session_id: "ses_1" },
});
const now = () => Math.floor(Date.now() / 1000);

describe("the /docs callback verification example", () => {
  it("starts with its import and defines verifyCallback", () => {
    expect(CALLBACK_VERIFY_EXAMPLE.startsWith('import { createHmac, timingSafeEqual } from "node:crypto";\n')).toBe(true);
    expect(typeof verifyCallback).toBe("function");
  });

  it("accepts a callback signed by the service, and either secret during a rotation", async () => {
    expect(verifyCallback(SECRET, await webhookHeaders(SECRET, "msg_1", now(), BODY), BODY)).toBe(true);
    const rotated = await webhookHeaders([SECRET, OLD_SECRET], "msg_2", now(), BODY);
    expect(rotated["webhook-signature"].split(" ")).toHaveLength(2);
    expect(verifyCallback(SECRET, rotated, BODY)).toBe(true);
    expect(verifyCallback(OLD_SECRET, rotated, BODY)).toBe(true);
  });

  it("refuses a changed body, another secret, a changed id, a stale timestamp and a missing signature", async () => {
    const headers = await webhookHeaders(SECRET, "msg_3", now(), BODY);
    expect(verifyCallback(SECRET, headers, BODY.replace("ses_1", "ses_2"))).toBe(false);
    expect(verifyCallback(OLD_SECRET, headers, BODY)).toBe(false);
    expect(verifyCallback(SECRET, { ...headers, "webhook-id": "msg_4" }, BODY)).toBe(false);
    const stale = await webhookHeaders(SECRET, "msg_5", now() - 301, BODY);
    expect(verifyCallback(SECRET, stale, BODY)).toBe(false);
    expect(verifyCallback(SECRET, { ...headers, "webhook-signature": undefined }, BODY)).toBe(false);
    expect(verifyCallback(SECRET, { ...headers, "webhook-signature": headers["webhook-signature"].replace("v1,", "v2,") }, BODY)).toBe(
      false,
    );
  });
});
