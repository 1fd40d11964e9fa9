// A sample of the structural mutations (test/node/digital-id-mdoc-mutations.test.ts runs thousands on
// the verifier alone) sent through the real route, Durable Object and D1: each mutated answer, re-sealed
// to the session's key as an attacker can, is 422 with a digital-ID code, the session stays PENDING with
// its log row unchanged, and each counts toward the five-failure cap (the genuine answer after five is 429).
import { CipherSuite, Aes128Gcm, DhkemP256HkdfSha256, HkdfSha256 } from "@hpke/core";
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { verificationSessions } from "../../src/db/schema";
import { call, expectError } from "../helpers/http";
import { rowWhere } from "../helpers/rows";
import { seedMerchant } from "../helpers/seed";
import { openSession, poll } from "../helpers/sessions";
import { dbOfSession } from "../helpers/shards";
import { MDL, answer, issueMdoc, type DigitalRequest } from "../wallet";
import { Tag, base64url, decode, encode, fromBase64url, sha256 } from "../wallet/cbor";
import { deviceResponse } from "../wallet/mdoc";
import { mdocMutant, type MdocContext } from "../node/digital-id/mdoc-mutations";
import { signerUnderTestRoot } from "./wallet-setup";

const ORIGIN = new URL(env.APP_URL).origin;

async function sessionWithRequest() {
  const merchant = await seedMerchant("mutations");
  const { session_id, nonce } = await openSession(merchant.apiKey, 18);
  const asked = await call("POST", `/api/age-verification/session/${session_id}/digital-id/request`, {
    headers: { "x-session-nonce": nonce },
  });
  return { merchant, session_id, nonce, requests: asked.body.data.requests as DigitalRequest[] };
}

/** The Annex C transcript and HPKE seal of the wallet (test/wallet/answer.ts), for bytes the test chose. */
async function annexC(requests: DigitalRequest[]) {
  const { encryptionInfo } = requests.find((r) => r.protocol === "org-iso-mdoc")!.data as { encryptionInfo: string };
  const transcript = [null, null, ["dcapi", await sha256(encode([encryptionInfo, ORIGIN]))]];
  const recipient = (decode(fromBase64url(encryptionInfo)) as [string, Map<string, Map<number, Uint8Array>>])[1].get("recipientPublicKey")!;
  const seal = async (bytes: Uint8Array) => {
    const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes128Gcm() });
    const recipientPublicKey = await suite.kem.importKey(
      "raw",
      new Uint8Array([4, ...recipient.get(-2)!, ...recipient.get(-3)!]).buffer,
      true,
    );
    const sealed = await suite.seal({ recipientPublicKey, info: encode(transcript).buffer }, bytes);
    return {
      protocol: "org-iso-mdoc",
      data: {
        response: base64url(
          encode([
            "dcapi",
            new Map<string, unknown>([
              ["enc", new Uint8Array(sealed.enc)],
              ["cipherText", new Uint8Array(sealed.ct)],
            ]),
          ]),
        ),
      },
    };
  };
  return { transcript, seal };
}

describe("mutated answers through the route", { timeout: 60_000 }, () => {
  it("five mutated answers are each 422 and counted, the session stays PENDING, the genuine answer then gets 429", async () => {
    const session = await sessionWithRequest();
    const mdl = await issueMdoc({ kind: MDL, signer: await signerUnderTestRoot(), ages: { 18: true } });
    const { transcript, seal } = await annexC(session.requests);
    const valid = await deviceResponse(mdl, transcript, { disclose: ["age_over_18"] });
    const context: MdocContext = {
      valid,
      deviceAuthenticationBytes: encode(
        new Tag(encode(["DeviceAuthentication", transcript, mdl.docType, new Tag(encode(new Map()), 24)]), 24),
      ),
      donors: [
        {
          label: "another session",
          bytes: await deviceResponse(mdl, [null, null, ["dcapi", new Uint8Array(32)]], { disclose: ["age_over_18"] }),
        },
      ],
    };
    // Mutants of classes that main refuses today (the pending ones may still pass until their fix lands).
    const mutants = fc
      .sample(mdocMutant(context), { numRuns: 200, seed: 49 })
      .filter((m) => m && !m.pending)
      .slice(0, 5);
    expect(mutants).toHaveLength(5);
    const before = await rowWhere(
      await dbOfSession(session.session_id),
      verificationSessions,
      eq(verificationSessions.id, session.session_id),
    );

    for (const mutant of mutants) {
      const res = await call("POST", `/api/age-verification/session/${session.session_id}/digital-id/response`, {
        headers: { "x-session-nonce": session.nonce },
        body: await seal(mutant!.bytes),
      });
      expect(res.status, mutant!.label).toBe(422);
      expect(["DIGITAL_ID_INVALID", "DIGITAL_ID_INSUFFICIENT"], mutant!.label).toContain(res.body.error);
      expect((await poll(session.merchant.apiKey, session.session_id)).body.data).toMatchObject({
        status: "PENDING",
        assurance: null,
        receipt_id: null,
      });
    }
    expect(
      await rowWhere(await dbOfSession(session.session_id), verificationSessions, eq(verificationSessions.id, session.session_id)),
    ).toStrictEqual(before);

    const genuine = await answer(session.requests, mdl, { origin: ORIGIN });
    expectError(
      await call("POST", `/api/age-verification/session/${session.session_id}/digital-id/response`, {
        headers: { "x-session-nonce": session.nonce },
        body: genuine,
      }),
      429,
      "RATE_LIMITED",
    );
    expect((await poll(session.merchant.apiKey, session.session_id)).body.data.status).toBe("PENDING");
  });
});
