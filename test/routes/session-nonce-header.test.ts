// The nonce in the X-Session-Nonce header (docs/api-contract.md §Answering, docs/security-privacy.md): accepted on the request read and on
// complete, so the apps keep it out of URLs; the 1.0.0 query and body forms stay valid; a wrong header
// nonce is refused like a wrong query nonce, and two nonces that disagree are refused.
import { describe, expect, it } from "vitest";
import { call, expectError } from "../helpers/http";
import { asset } from "../helpers/static-assets";
import { seedEndUser, seedMerchant } from "../helpers/seed";
import { openSession, storedStatus } from "../helpers/sessions";

const requestPath = (id: string) => `/api/age-verification/session/${id}/request`;
const completePath = (id: string) => `/api/age-verification/session/${id}/complete`;

describe("X-Session-Nonce", () => {
  it("reads the request with the nonce in the header alone", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const opened = await openSession(merchant.apiKey);
    const res = await call("GET", requestPath(opened.session_id), { token: user.token, headers: { "x-session-nonce": opened.nonce } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.session_id).toBe(opened.session_id);
  });

  it("completes with the nonce in the header and a body of consent only", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const opened = await openSession(merchant.apiKey);
    const res = await call("POST", completePath(opened.session_id), {
      token: user.token,
      headers: { "x-session-nonce": opened.nonce },
      body: { consent: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.status).toBe("APPROVED");
  });

  it("the 1.0.0 forms stay valid: ?nonce= on the read, nonce in the complete body", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const opened = await openSession(merchant.apiKey);
    expect((await call("GET", `${requestPath(opened.session_id)}?nonce=${opened.nonce}`, { token: user.token })).status).toBe(200);
    expect(
      (await call("POST", completePath(opened.session_id), { token: user.token, body: { nonce: opened.nonce, consent: false } })).body.data
        .status,
    ).toBe("DENIED");
  });

  it("a wrong header nonce is 404, like an unknown session, and completes nothing", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const opened = await openSession(merchant.apiKey);
    expectError(
      await call("GET", requestPath(opened.session_id), { token: user.token, headers: { "x-session-nonce": "wrong" } }),
      404,
      "NOT_FOUND",
    );
    expectError(
      await call("POST", completePath(opened.session_id), {
        token: user.token,
        headers: { "x-session-nonce": "wrong" },
        body: { consent: true },
      }),
      404,
      "NOT_FOUND",
    );
    expect(await storedStatus(opened.session_id)).toBe("PENDING");
  });

  it("no nonce at all, or a header and a body nonce that disagree, is 422 and completes nothing", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const opened = await openSession(merchant.apiKey);
    expectError(await call("GET", requestPath(opened.session_id), { token: user.token }), 422, "VALIDATION_FAILED");
    expectError(
      await call("POST", completePath(opened.session_id), { token: user.token, body: { consent: true } }),
      422,
      "VALIDATION_FAILED",
    );
    const disagree = await call("POST", completePath(opened.session_id), {
      token: user.token,
      headers: { "x-session-nonce": opened.nonce },
      body: { nonce: "other", consent: true },
    });
    expectError(disagree, 422, "VALIDATION_FAILED");
    expect(await storedStatus(opened.session_id)).toBe("PENDING");
  });

  it("the OpenAPI document names the header on both routes, and the query form stays", async () => {
    const doc = (await asset("/api/openapi.json")).body as unknown as {
      paths: Record<string, Record<string, { parameters: { name: string; in: string }[] }>>;
    };
    const read = doc.paths["/api/age-verification/session/{id}/request"]!.get!.parameters;
    expect(read).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "x-session-nonce", in: "header" }),
        expect.objectContaining({ name: "nonce", in: "query" }),
      ]),
    );
    expect(doc.paths["/api/age-verification/session/{id}/complete"]!.post!.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "x-session-nonce", in: "header" })]),
    );
  });
});
