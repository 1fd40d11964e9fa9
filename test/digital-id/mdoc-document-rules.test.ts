// The mdoc DeviceResponse, one rule at a time (src/digital-id/mdoc-document.ts; docs/digital-id.md, "What
// is verified"): each answer is a genuine Annex C answer of the test wallet with one part of the
// DeviceResponse, its document, its MSO or its issuer signature replaced, re-signed by the issuer where
// the part is signed, so that the check under test, and no other, refuses it. Each refusal's message is
// pinned whole: it reaches the problem detail and names the part of the answer that is wrong.
import { describe, expect, it } from "vitest";
import { verifyDeviceResponse } from "../../src/digital-id/mdoc-document";
import { MDL, EU_AGE, issueMdoc, sealAnnexC, type DigitalRequest, type Mdoc } from "../wallet";
import { Tag, decode, encode, sha256, tag24, tdate } from "../wallet/cbor";
import { deviceResponse, sign1 } from "../wallet/mdoc";
import { APP_ORIGIN, anchors, newRequest, signerUnderTestRoot, verify, refused } from "./wallet-setup";

type CborMap = Map<unknown, unknown>;
type Signer = Awaited<ReturnType<typeof signerUnderTestRoot>>;

type Fault = {
  kind?: typeof MDL | typeof EU_AGE;
  /** `age_over_NN` elements the credential holds; { 18: true } by default. */
  ages?: Record<number, boolean>;
  /** Element identifiers presented; age_over_18 by default. */
  disclose?: string[];
  /** Issuer-signed items added to the doctype's namespace, each digested into the MSO under digestID 100, 101, … */
  extraItems?: Map<string, unknown>[];
  /** Changes the MSO before the issuer signs it. */
  mso?: (mso: CborMap) => void;
  /** Makes the issuer signature (issuerAuth) from the signer, the MSO payload the issuer signs and the x5chain header. */
  issuerAuth?: (signer: Signer, payload: Uint8Array, unprotected: Map<number, unknown>) => Promise<unknown[]>;
  /** Changes the DeviceResponse after the wallet has device-signed it (`documents[0]` is the document). */
  response?: (response: CborMap) => void;
};

const signer = signerUnderTestRoot();
const DAY = 86_400_000;

/** A credential of the test issuer with the fault's changes to what the issuer signs. */
async function credential(fault: Fault): Promise<{ mdoc: Mdoc; extraItems: Uint8Array[] }> {
  const issuer = await signer;
  const mdoc = await issueMdoc({ kind: fault.kind ?? MDL, signer: issuer, ages: fault.ages ?? { 18: true } });
  const [, unprotected, payload] = mdoc.issuerAuth as [Uint8Array, Map<number, unknown>, Uint8Array];
  const mso = decode((decode(payload) as Tag).value as Uint8Array) as CborMap;
  // cbor-x reads tdate (tag 0) as a Date and would write it back as tag 1: keep the issuer's form.
  const validity = mso.get("validityInfo") as CborMap;
  for (const [name, value] of validity) if (value instanceof Date) validity.set(name, tdate(value));
  const extraItems: Uint8Array[] = [];
  const digests = (mso.get("valueDigests") as CborMap).get(mdoc.namespace) as CborMap;
  for (const [index, item] of (fault.extraItems ?? []).entries()) {
    const bytes = encode(new Map([["digestID", 100 + index], ...item]));
    digests.set(100 + index, await sha256(encode(new Tag(bytes, 24))));
    extraItems.push(bytes);
  }
  fault.mso?.(mso);
  const signed = encode(tag24(mso));
  mdoc.issuerAuth = fault.issuerAuth
    ? await fault.issuerAuth(issuer, signed, unprotected)
    : await sign1(issuer.privateKey, signed, unprotected);
  return { mdoc, extraItems };
}

/** The Annex C transcript as the wallet computes it (test/wallet/answer.ts), for the session's request. */
const transcriptOf = async (request: DigitalRequest) => [
  null,
  null,
  ["dcapi", await sha256(encode([(request.data as { encryptionInfo: string }).encryptionInfo, APP_ORIGIN]))],
];

/** The DeviceResponse bytes of the faulty credential, device-signed for `transcript`, with the fault's changes. */
async function present(fault: Fault, transcript: unknown): Promise<Uint8Array<ArrayBuffer>> {
  const { mdoc, extraItems } = await credential(fault);
  const bytes = await deviceResponse(mdoc, transcript, { disclose: fault.disclose ?? ["age_over_18"] });
  const response = decode(bytes) as CborMap;
  const document = (response.get("documents") as CborMap[])[0]!;
  const items = ((document.get("issuerSigned") as CborMap).get("nameSpaces") as CborMap).get(mdoc.namespace) as unknown[];
  items.push(...extraItems.map((item) => new Tag(item, 24)));
  fault.response?.(response);
  return encode(response);
}

/** The answer, sealed to a fresh session's request and verified as the session does, at `now`. */
async function answerWith(fault: Fault, now = new Date()) {
  const { requests, pending } = await newRequest(18);
  const request = requests.find((r) => r.protocol === "org-iso-mdoc")!;
  const bytes = await present(fault, await transcriptOf(request));
  return verify(await sealAnnexC(request, bytes, APP_ORIGIN), pending, 18, anchors(), now);
}

/** Sealed bytes of any DeviceResponse, verified as the session does. */
async function sealedResponse(bytes: Uint8Array<ArrayBuffer>) {
  const { requests, pending } = await newRequest(18);
  return verify(await sealAnnexC(requests.find((r) => r.protocol === "org-iso-mdoc")!, bytes, APP_ORIGIN), pending, 18);
}

const documentOf = (response: CborMap) => (response.get("documents") as CborMap[])[0]!;
const issuerSignedOf = (response: CborMap) => documentOf(response).get("issuerSigned") as CborMap;
const deviceSignedOf = (response: CborMap) => documentOf(response).get("deviceSigned") as CborMap;
const validityOf = (mso: CborMap) => mso.get("validityInfo") as CborMap;
const malformed = Uint8Array.from([0x82, 0x01]); // an array of two that ends after one
/** A time on a whole second, as tdate carries it, a little in the past. */
const wholeSecond = () => new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);

describe("the DeviceResponse", () => {
  it("the unchanged answer approves (the control every fault below starts from)", async () => {
    expect(await answerWith({})).toStrictEqual({ outcome: "APPROVED" });
  });

  it("bytes that are not CBOR, or CBOR that is not a map, are refused", async () => {
    await refused(sealedResponse(malformed), "the DeviceResponse is not well-formed CBOR.");
    await refused(sealedResponse(encode([1])), "the DeviceResponse is not a map.");
  });

  it("a version that is not text, or not 1.x, is refused; 1.1 verifies", async () => {
    await refused(answerWith({ response: (r) => r.set("version", 1) }), "the DeviceResponse version is not text.");
    await refused(answerWith({ response: (r) => r.set("version", "2.0") }), "the DeviceResponse version is not supported.");
    expect(await answerWith({ response: (r) => r.set("version", "1.1") })).toStrictEqual({ outcome: "APPROVED" });
  });

  it("a status other than 0 (OK) is refused", async () => {
    await refused(answerWith({ response: (r) => r.set("status", 10) }), "the wallet reported an error status.");
  });

  it("no documents, an empty list, a list that is not an array, or a document that is not a map are refused", async () => {
    await refused(answerWith({ response: (r) => r.delete("documents") }), "the DeviceResponse holds no document.");
    await refused(answerWith({ response: (r) => r.set("documents", []) }), "the DeviceResponse holds no document.");
    await refused(answerWith({ response: (r) => r.set("documents", 5) }), "documents is not an array.");
    await refused(answerWith({ response: (r) => r.set("documents", [5]) }), "a document is not a map.");
  });
});

describe("a document's shape, read before any signature", () => {
  it("a docType that is not text, or not a doctype the request asked for, is refused", async () => {
    await refused(answerWith({ response: (r) => documentOf(r).set("docType", 5) }), "docType is not text.");
    await refused(
      answerWith({ response: (r) => documentOf(r).set("docType", "org.example.membership.1") }),
      "the document is not of a requested doctype.",
    );
  });

  it("issuerSigned, its nameSpaces and a namespace's items must be a map, a map and an array", async () => {
    await refused(answerWith({ response: (r) => documentOf(r).set("issuerSigned", 5) }), "issuerSigned is not a map.");
    await refused(answerWith({ response: (r) => issuerSignedOf(r).set("nameSpaces", 5) }), "issuer nameSpaces is not a map.");
    await refused(
      answerWith({ response: (r) => issuerSignedOf(r).set("nameSpaces", new Map([[MDL.namespace, 5]])) }),
      "an issuer-signed namespace is not an array.",
    );
  });

  it("an OpenID4VP credential query fixes the doctype: an EU age document answering the mDL query is refused", async () => {
    const transcript = [null, null, ["dcapi", new Uint8Array(32)]];
    const euAge = await present({ kind: EU_AGE }, transcript);
    await refused(
      verifyDeviceResponse(euAge, transcript, anchors(), new Date(), MDL.docType),
      "the document is not of the doctype its credential query asked for.",
    );
    expect(await verifyDeviceResponse(euAge, transcript, anchors(), new Date(), EU_AGE.docType)).toStrictEqual([
      { age: 18, over: true, status: null },
    ]);
  });
});

describe("the issuer signature (issuerAuth)", () => {
  it("one that is not a COSE_Sign1, or carries no certificate, is refused", async () => {
    await refused(
      answerWith({ response: (r) => issuerSignedOf(r).set("issuerAuth", 5) }),
      "the issuer signature (issuerAuth) is not an array.",
    );
    await refused(
      answerWith({ issuerAuth: (issuer, payload) => sign1(issuer.privateKey, payload, new Map()) }),
      "the issuer signature carries no certificate (x5chain).",
    );
  });

  it("an algorithm other than the certificate key's (ES384 named over a P-256 key) is refused", async () => {
    await refused(
      answerWith({ issuerAuth: (issuer, payload, unprotected) => sign1(issuer.privateKey, payload, unprotected, undefined, [[1, -35]]) }),
      "the issuer signature's algorithm does not match its certificate's key.",
    );
  });

  it("a detached issuer signature (nil payload) is refused: there is no MSO it vouches for", async () => {
    await refused(
      answerWith({ issuerAuth: (issuer, payload, unprotected) => sign1(issuer.privateKey, null, unprotected, payload) }),
      "the issuer signature has no mobile security object.",
    );
  });

  it("a signed payload that is not CBOR, not embedded CBOR, or embeds no CBOR map is refused", async () => {
    const signedAs = (payload: Uint8Array) => (issuer: Signer, _: Uint8Array, unprotected: Map<number, unknown>) =>
      sign1(issuer.privateKey, payload, unprotected);
    await refused(answerWith({ issuerAuth: signedAs(malformed) }), "the mobile security object is not well-formed CBOR.");
    await refused(
      answerWith({ issuerAuth: signedAs(encode(new Map([["version", "1.0"]]))) }),
      "the mobile security object is not embedded CBOR (tag 24).",
    );
    await refused(
      answerWith({ issuerAuth: signedAs(encode(new Tag(malformed, 24))) }),
      "the mobile security object is not well-formed CBOR.",
    );
    await refused(answerWith({ issuerAuth: signedAs(encode(tag24([1]))) }), "the mobile security object is not a map.");
  });
});

describe("the mobile security object", () => {
  it("a docType that is not text is refused", async () => {
    await refused(answerWith({ mso: (mso) => mso.set("docType", 5) }), "the MSO's docType is not text.");
  });

  it("validityInfo and its signed, validFrom and validUntil must be a map and three date-times", async () => {
    await refused(answerWith({ mso: (mso) => mso.set("validityInfo", 5) }), "the MSO's validityInfo is not a map.");
    for (const field of ["signed", "validFrom", "validUntil"])
      await refused(
        answerWith({ mso: (mso) => validityOf(mso).set(field, "2025-01-01T00:00:00Z") }),
        `${field} is not a date-time (tag 0).`,
      );
  });

  it("signed exactly five minutes ahead of now verifies (the skew allowed), a second more is refused", async () => {
    const signedAt = wholeSecond();
    const fault = { mso: (mso: CborMap) => validityOf(mso).set("signed", tdate(signedAt)) };
    expect(await answerWith(fault, new Date(signedAt.getTime() - 5 * 60_000))).toStrictEqual({ outcome: "APPROVED" });
    await refused(
      answerWith(fault, new Date(signedAt.getTime() - 5 * 60_000 - 1000)),
      "the mobile security object is signed in the future (MSO signed).",
    );
  });

  it("validFrom and validUntil are inclusive: an MSO verifies at either instant and not a second outside", async () => {
    const at = wholeSecond();
    const from = { mso: (mso: CborMap) => validityOf(mso).set("validFrom", tdate(at)) };
    expect(await answerWith(from, at)).toStrictEqual({ outcome: "APPROVED" });
    await refused(answerWith(from, new Date(at.getTime() - 1000)), "the credential is not valid yet (MSO validFrom).");
    const until = {
      mso: (mso: CborMap) => {
        validityOf(mso).set("validFrom", tdate(new Date(at.getTime() - DAY)));
        validityOf(mso).set("validUntil", tdate(at));
      },
    };
    expect(await answerWith(until, at)).toStrictEqual({ outcome: "APPROVED" });
    await refused(answerWith(until, new Date(at.getTime() + 1000)), "the credential has expired (MSO validUntil).");
  });

  it("a digest algorithm that is not text, or not SHA-256/384/512, is refused", async () => {
    await refused(answerWith({ mso: (mso) => mso.set("digestAlgorithm", 5) }), "digestAlgorithm is not text.");
    await refused(answerWith({ mso: (mso) => mso.set("digestAlgorithm", "SHA-1") }), "the MSO's digest algorithm is not accepted.");
  });

  it("valueDigests, deviceKeyInfo and its deviceKey must be maps", async () => {
    await refused(answerWith({ mso: (mso) => mso.set("valueDigests", 5) }), "valueDigests is not a map.");
    await refused(answerWith({ mso: (mso) => mso.set("deviceKeyInfo", 5) }), "deviceKeyInfo is not a map.");
    await refused(answerWith({ mso: (mso) => mso.set("deviceKeyInfo", new Map([["deviceKey", 5]])) }), "the device key is not a map.");
  });
});

describe("issuer-signed items", () => {
  it("a namespace the MSO has no digests for is refused, its name quoted to 60 characters at most", async () => {
    const namespace = `org.example.${"n".repeat(100)}`;
    await refused(
      answerWith({ response: (r) => (issuerSignedOf(r).get("nameSpaces") as CborMap).set(namespace, []) }),
      `the digests of namespace ${namespace.slice(0, 60)} is not a map.`,
    );
  });

  it("an item that is not embedded CBOR, not CBOR, not a map, or without an integer digestID is refused", async () => {
    const withItem = (item: unknown) => ({
      response: (r: CborMap) => ((issuerSignedOf(r).get("nameSpaces") as CborMap).get(MDL.namespace) as unknown[]).push(item),
    });
    await refused(answerWith(withItem(5)), "an issuer-signed item is not embedded CBOR (tag 24).");
    await refused(answerWith(withItem(new Tag(malformed, 24))), "the issuer-signed item is not well-formed CBOR.");
    await refused(answerWith(withItem(tag24([1]))), "an issuer-signed item is not a map.");
    await refused(answerWith(withItem(tag24(new Map([["digestID", "1"]])))), "digestID is not an integer.");
  });

  it("a digest one byte longer than the item's, the item's digest as its prefix, does not match", async () => {
    const extended = (mso: CborMap) => {
      const digests = (mso.get("valueDigests") as CborMap).get(MDL.namespace) as CborMap;
      digests.set(0, Uint8Array.from([...(digests.get(0) as Uint8Array), 0]));
    };
    await refused(answerWith({ mso: extended }), "a disclosed element does not match its signed digest.");
  });

  it("a signed item whose elementIdentifier is not text is refused", async () => {
    const item = new Map<string, unknown>([
      ["random", new Uint8Array(16)],
      ["elementIdentifier", 18],
      ["elementValue", true],
    ]);
    await refused(answerWith({ extraItems: [item] }), "elementIdentifier is not text.");
  });

  it("a signed age element whose value is not a boolean is refused, not read as true", async () => {
    const item = new Map<string, unknown>([
      ["random", new Uint8Array(16)],
      ["elementIdentifier", "age_over_18"],
      ["elementValue", "yes"],
    ]);
    await refused(answerWith({ ages: {}, disclose: [], extraItems: [item] }), "an age element is not a boolean.");
  });

  it("only the age statements of the doctype's namespace come out of a verified DeviceResponse, nothing else", async () => {
    const transcript = [null, null, ["dcapi", new Uint8Array(32)]];
    const family = new Map<string, unknown>([
      ["random", new Uint8Array(16)],
      ["elementIdentifier", "family_name"],
      ["elementValue", "Doe"],
    ]);
    const bytes = await present(
      { ages: { 18: true, 21: false }, disclose: ["age_over_18", "age_over_21"], extraItems: [family] },
      transcript,
    );
    expect(await verifyDeviceResponse(bytes, transcript, anchors(), new Date())).toStrictEqual([
      { age: 18, over: true, status: null },
      { age: 21, over: false, status: null },
    ]);
    const nothing = await present({ ages: {}, disclose: [], extraItems: [family] }, transcript);
    expect(await verifyDeviceResponse(nothing, transcript, anchors(), new Date())).toStrictEqual([]);
  });
});

describe("the device signature (deviceSigned)", () => {
  it("deviceSigned, its nameSpaces and deviceAuth must be a map, embedded CBOR and a map", async () => {
    await refused(answerWith({ response: (r) => documentOf(r).set("deviceSigned", 5) }), "deviceSigned is not a map.");
    await refused(
      answerWith({ response: (r) => deviceSignedOf(r).set("nameSpaces", 5) }),
      "the device nameSpaces is not embedded CBOR (tag 24).",
    );
    await refused(answerWith({ response: (r) => deviceSignedOf(r).set("deviceAuth", 5) }), "deviceAuth is not a map.");
  });

  it("a device MAC instead of a signature is refused, and so is a signature that is not a COSE_Sign1", async () => {
    await refused(
      answerWith({
        response: (r) =>
          deviceSignedOf(r).set("deviceAuth", new Map([["deviceMac", [new Uint8Array(0), new Map(), null, new Uint8Array(32)]]])),
      }),
      "the document carries no device signature (a device MAC cannot be checked here).",
    );
    await refused(
      answerWith({ response: (r) => deviceSignedOf(r).set("deviceAuth", new Map([["deviceSignature", 5]])) }),
      "the device signature is not an array.",
    );
  });
});
