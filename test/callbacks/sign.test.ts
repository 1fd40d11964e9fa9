import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { signPayload, webhookHeaders } from "../../src/callbacks/sign";
import { toBase64 } from "../../src/lib/encoding";
import { randomBytes } from "../../src/lib/crypto";

describe("Standard Webhooks signing", () => {
  describe("happy", () => {
    it("reproduces the published Standard Webhooks test vector exactly", async () => {
      const signature = await signPayload(
        "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        "msg_p5jXN8AQM9LWM0D4loKWxJek",
        1614265330,
        '{"test": 2432232314}',
      );
      expect(signature).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    });

    it("produces headers the reference library verifies", async () => {
      const secret = `whsec_${toBase64(randomBytes(32))}`;
      const body = JSON.stringify({ type: "age_verification.session.approved", data: { ok: true } });
      const headers = await webhookHeaders(secret, "msg_abc", Math.floor(Date.now() / 1000), body);
      expect(headers["webhook-id"]).toBe("msg_abc");
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    });
  });

  describe("security", () => {
    it("signs the id and the timestamp too: changing either breaks the signature", async () => {
      const secret = `whsec_${toBase64(randomBytes(32))}`;
      const now = Math.floor(Date.now() / 1000);
      const headers = await webhookHeaders(secret, "msg_abc", now, "{}");
      expect(() => new Webhook(secret).verify("{}", { ...headers, "webhook-id": "msg_abd" })).toThrow();
      expect(() => new Webhook(secret).verify("{}", { ...headers, "webhook-timestamp": String(now + 1) })).toThrow();
    });
  });
});
