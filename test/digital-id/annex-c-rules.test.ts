// The org-iso-mdoc envelope and the checks around it (src/digital-id/annex-c.ts, response.ts, request.ts,
// age-outcome.ts; docs/digital-id.md): the sealed `["dcapi", {enc, cipherText}]` array read before any
// decryption, which request an answer may answer, and the message of an answer that decides nothing.
// Each refusal's message is pinned whole: it reaches the problem detail.
import { describe, expect, it } from "vitest";
import { MDL, answer, issueMdoc } from "../wallet";
import { base64url, encode } from "../wallet/cbor";
import { APP_ORIGIN, newRequest, signerUnderTestRoot, verify, refused } from "./wallet-setup";

/** `data.response` of an org-iso-mdoc answer, verified against a fresh session's request. */
async function envelope(response: string) {
  const { pending } = await newRequest(18);
  return verify({ protocol: "org-iso-mdoc", data: { response } }, pending, 18);
}
const sealed = (value: unknown) => envelope(base64url(encode(value)));
const parameters = new Map([
  ["enc", new Uint8Array(65)],
  ["cipherText", new Uint8Array(32)],
]);

describe("the Annex C encrypted response", () => {
  it("text of the base64url alphabet that is no base64url (4n+1 characters) is refused", async () => {
    await refused(envelope("AAAAA"), "the encrypted response is not base64url.");
  });

  it("bytes that are not CBOR, or CBOR that is not an array, are refused", async () => {
    await refused(envelope(base64url(Uint8Array.from([0x82, 0x01]))), "the encrypted response is not well-formed CBOR.");
    await refused(sealed(parameters), "the encrypted response is not an array.");
  });

  it('anything but ["dcapi", parameters] is refused before any decryption: a third element, another type, a type that is not text', async () => {
    await refused(sealed(["dcapi", parameters, 1]), "the response is not an Annex C `dcapi` response.");
    await refused(sealed(["dcapi"]), "the response is not an Annex C `dcapi` response.");
    await refused(sealed(["dcapi-x", parameters]), "the response is not an Annex C `dcapi` response.");
    await refused(sealed([5, parameters]), "the response type is not text.");
  });

  it("parameters that are not a map, or without enc or cipherText as byte strings, are refused", async () => {
    await refused(sealed(["dcapi", 5]), "the encrypted response parameters is not a map.");
    await refused(sealed(["dcapi", new Map([["cipherText", new Uint8Array(32)]])]), "enc is not a byte string.");
    await refused(sealed(["dcapi", new Map([["enc", new Uint8Array(65)]])]), "cipherText is not a byte string.");
    // Well-formed parameters reach the decryption, which a key of another request cannot pass.
    await refused(
      sealed(["dcapi", parameters]),
      "the response does not open with this request (another origin, an earlier request, or a replay).",
    );
  });
});

const mdl = async (ages: Record<number, boolean>) => issueMdoc({ kind: MDL, signer: await signerUnderTestRoot(), ages });

describe("which request an answer answers", () => {
  it("a valid answer to the session's request for 18 is refused once the session asks for another age", async () => {
    const { requests, pending } = await newRequest(18);
    const response = await answer(requests, await mdl({ 18: true, 21: true }), { origin: APP_ORIGIN });
    await refused(verify(response, pending, 21), "there is no open request for this session to answer (it was answered or replaced).");
    expect(await verify(response, pending, 18)).toStrictEqual({ outcome: "APPROVED" });
  });

  it("org-iso-mdoc is offered up to 99 and an answer by it is 422 VALIDATION_FAILED when the request (above 99) did not offer it", async () => {
    expect((await newRequest(99)).requests.map((r) => r.protocol)).toStrictEqual(["org-iso-mdoc", "openid4vp-v1-unsigned"]);
    const offered = await newRequest(18);
    const response = await answer(offered.requests, await mdl({ 18: true }), { origin: APP_ORIGIN });
    const { pending } = await newRequest(100);
    const error = await verify(response, pending, 100).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      code: "VALIDATION_FAILED",
      status: 422,
      errors: [{ path: "protocol", message: "This request did not offer org-iso-mdoc." }],
    });
  });
});

describe("an answer that decides nothing", () => {
  it("is 422 DIGITAL_ID_INSUFFICIENT saying which age it does not answer", async () => {
    const { requests, pending } = await newRequest(21);
    const response = await answer(requests, await mdl({ 18: true }), { origin: APP_ORIGIN, disclose: ["age_over_18"] });
    const error = await verify(response, pending, 21).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: "DIGITAL_ID_INSUFFICIENT", status: 422 });
    expect((error as Error).message).toBe("The digital ID does not say whether the person is at least 21.");
  });
});
