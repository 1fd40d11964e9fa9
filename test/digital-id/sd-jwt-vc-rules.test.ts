// The SD-JWT VC check's own rules, one by one (RFC 9901, the SD-JWT VC draft, docs/digital-id.md "What is
// verified"): the compact form of each JWT, the algorithms, the disclosures (of object properties and of
// array elements, each used once), the times, the issuer's x5c, the holder key and the key-binding JWT,
// and which age statements come out. Each presentation is built here claim by claim, signed by the test
// root's document signer and a holder key, so that exactly one rule is broken; each refusal has its
// accepted neighbour beside it.
import { beforeAll, describe, expect, it } from "vitest";
import { verifySdJwtVc } from "../../src/digital-id/sd-jwt-vc";
import { documentSigner, type Issuer } from "../wallet";
import { base64url, sha256 } from "../wallet/cbor";
import { anchors, root } from "./wallet-setup";

type Json = Record<string, unknown>;

const NOW = Math.floor(Date.now() / 1000);
const NONCE = "nonce-of-this-request";
const AUDIENCE = "origin:https://age.example.test";
const trust = anchors();
const bytes = (text: string) => new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>;
const json64 = (value: unknown) => base64url(bytes(JSON.stringify(value)));
const toBase64 = (data: Uint8Array) => btoa(String.fromCharCode(...data));
const digestOf = async (disclosure: string) => base64url(await sha256(bytes(disclosure)));
/** A disclosure: [salt, name, value] for an object property, [salt, value] for an array element. */
const disclosure = (...items: unknown[]) => json64([base64url(crypto.getRandomValues(new Uint8Array(16))), ...items]);

async function sign(key: CryptoKey, header: Json, payload: Json, hash = "SHA-256"): Promise<string> {
  const input = `${json64(header)}.${json64(payload)}`;
  const signature = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash }, key, bytes(input)));
  return `${input}.${base64url(signature)}`;
}

let signer: Issuer;
let holder: CryptoKeyPair;
let holderJwk: Json;
let over18: string;

beforeAll(async () => {
  signer = await documentSigner(await root(), { extendedKeyUsage: undefined });
  holder = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const { kty, crv, x, y } = (await crypto.subtle.exportKey("jwk", holder.publicKey)) as JsonWebKey;
  holderJwk = { kty, crv, x, y };
  over18 = disclosure("18", true);
});

type Build = {
  /** Issuer JWT claims over the usual ones (`undefined` leaves one out); age_equal_or_over defaults to the disclosed 18. */
  claims?: Json;
  header?: Json;
  /** Disclosures presented; default: the one of age_equal_or_over.18. */
  disclosures?: string[];
  keyBindingHeader?: Json;
  keyBindingClaims?: Json;
  /** Replaces the issuer JWT as text. */
  issuerJwt?: string;
};

async function issuerJwtOf(build: Build): Promise<string> {
  if (build.issuerJwt !== undefined) return build.issuerJwt;
  const claims = {
    iss: "https://issuer.test.invalid",
    vct: "urn:eudi:pid:1",
    cnf: { jwk: holderJwk },
    _sd_alg: "sha-256",
    age_equal_or_over: { _sd: [await digestOf(over18)] },
    iat: NOW - 3600,
    exp: NOW + 86_400,
    ...build.claims,
  };
  return sign(signer.privateKey, { alg: "ES256", typ: "dc+sd-jwt", x5c: [toBase64(signer.certificate)], ...build.header }, claims);
}

async function present(build: Build = {}): Promise<string> {
  const body = `${await issuerJwtOf(build)}~${(build.disclosures ?? [over18]).map((d) => `${d}~`).join("")}`;
  const keyBinding = await sign(
    holder.privateKey,
    { alg: "ES256", typ: "kb+jwt", ...build.keyBindingHeader },
    { nonce: NONCE, aud: AUDIENCE, iat: NOW, sd_hash: await digestOf(body), ...build.keyBindingClaims },
  );
  return body + keyBinding;
}

const check = (presentation: string, now = new Date(NOW * 1000)) =>
  verifySdJwtVc(presentation, { nonce: NONCE, audience: AUDIENCE }, trust, now);

const OVER_18 = [{ age: 18, over: true, status: null }];

async function refused(presentation: string | Promise<string>, message: string, now?: Date) {
  const error = await check(await presentation, now).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toMatchObject({ code: "DIGITAL_ID_INVALID", status: 422 });
  expect((error as Error).message).toBe(`The digital ID did not verify: ${message}`);
}

describe("the presentation's compact form", () => {
  it("the usual presentation verifies: one disclosure, then the key-binding JWT", async () => {
    expect(await check(await present())).toStrictEqual(OVER_18);
  });

  it("no `~` at all, or a trailing `~` with no key-binding JWT, is refused", async () => {
    const presentation = await present();
    await refused(presentation.slice(0, presentation.indexOf("~")), "the SD-JWT VC is not `<JWT>~…~<key-binding JWT>`.");
    await refused(presentation.slice(0, presentation.lastIndexOf("~") + 1), "the SD-JWT VC has no key-binding JWT.");
  });

  it("no disclosure at all (`<JWT>~<key-binding JWT>`) verifies, with claims the issuer left in the clear", async () => {
    expect(await check(await present({ claims: { age_equal_or_over: { 18: true } }, disclosures: [] }))).toStrictEqual(OVER_18);
  });

  it("an issuer JWT of two parts, or with a character outside base64url at a part's start or end, is not a compact JWS", async () => {
    const [head, payload, signature] = (await issuerJwtOf({})).split(".") as [string, string, string];
    for (const issuerJwt of [`${head}.${payload}`, `*${head}.${payload}.${signature}`, `${head}.${payload}.${signature}=`])
      await refused(present({ issuerJwt }), "the issuer JWT is not a compact JWS.");
  });

  it("a JWT whose header is not JSON is refused, naming which JWT", async () => {
    const [, payload, signature] = (await issuerJwtOf({})).split(".") as [string, string, string];
    await refused(present({ issuerJwt: `${base64url(bytes("{not json"))}.${payload}.${signature}` }), "the issuer JWT is not JSON.");
    const presentation = await present();
    const [, kbPayload, kbSignature] = presentation.slice(presentation.lastIndexOf("~") + 1).split(".");
    await refused(
      `${presentation.slice(0, presentation.lastIndexOf("~") + 1)}${base64url(bytes("[1,"))}.${kbPayload}.${kbSignature}`,
      "the key-binding JWT is not JSON.",
    );
  });
});

describe("the issuer JWT's header", () => {
  it("typ vc+sd-jwt (the draft's earlier name) verifies; any other typ is refused", async () => {
    expect(await check(await present({ header: { typ: "vc+sd-jwt" } }))).toStrictEqual(OVER_18);
    for (const typ of ["JWT", "kb+jwt", undefined])
      await refused(present({ header: { typ } }), "the issuer JWT is not an SD-JWT VC (typ).");
  });

  it("an alg that is not text, or one whose curve is not the signer key's, is refused even when the signature holds", async () => {
    await refused(present({ header: { alg: ["ES256"] } }), "the issuer JWT uses an algorithm this service does not accept.");
    // ES384 names P-384 with SHA-384: a P-256 key signing SHA-384 digests is not ES384.
    const claims = { vct: "urn:eudi:pid:1", cnf: { jwk: holderJwk }, exp: NOW + 60, age_equal_or_over: { 18: true } };
    const issuerJwt = await sign(
      signer.privateKey,
      { alg: "ES384", typ: "dc+sd-jwt", x5c: [toBase64(signer.certificate)] },
      claims,
      "SHA-384",
    );
    await refused(present({ issuerJwt, disclosures: [] }), "the issuer JWT uses an algorithm this service does not accept.");
  });

  it("an x5c that is empty, holds a non-text entry or text that is not base64 is refused", async () => {
    const certificate = toBase64(signer.certificate);
    await refused(present({ header: { x5c: [] } }), "the issuer JWT carries no certificate (x5c).");
    await refused(present({ header: { x5c: [certificate, 7] } }), "the issuer JWT carries no certificate (x5c).");
    await refused(present({ header: { x5c: certificate } }), "the issuer JWT carries no certificate (x5c).");
    await refused(present({ header: { x5c: ["%%%%"] } }), "a certificate of the issuer JWT (x5c) is not base64.");
  });
});

describe("the issuer-signed claims", () => {
  it("_sd_alg may be left out (sha-256 is the default); any other digest algorithm is refused", async () => {
    expect(await check(await present({ claims: { _sd_alg: undefined } }))).toStrictEqual(OVER_18);
    await refused(present({ claims: { _sd_alg: "sha-512" } }), "the SD-JWT VC's digest algorithm is not accepted.");
  });

  it("exp is exclusive: a credential is refused at its exp second and verifies the second before", async () => {
    await refused(present({ claims: { exp: NOW } }), "the credential has expired (exp).");
    expect(await check(await present({ claims: { exp: NOW + 1 } }))).toStrictEqual(OVER_18);
  });

  it("nbf is inclusive: a credential verifies from its nbf second and is refused the second before", async () => {
    expect(await check(await present({ claims: { nbf: NOW } }))).toStrictEqual(OVER_18);
    await refused(present({ claims: { nbf: NOW + 1 } }), "the credential is not valid yet (nbf).");
  });

  it("an iat up to five minutes ahead (clock skew) verifies; one more second is refused", async () => {
    expect(await check(await present({ claims: { iat: NOW + 300 } }))).toStrictEqual(OVER_18);
    await refused(present({ claims: { iat: NOW + 301 } }), "the credential is issued in the future (iat).");
  });

  it("a holder key (cnf.jwk) that is missing, not EC or missing a coordinate is refused; one not on its curve too", async () => {
    const { crv, x, y } = holderJwk;
    const noKey = "the SD-JWT VC has no holder key (cnf.jwk).";
    for (const cnf of [undefined, "key", { jwk: "key" }, { kid: "key-1" }]) await refused(present({ claims: { cnf } }), noKey);
    for (const jwk of [
      { kty: "RSA", crv, x, y },
      { kty: "EC", x, y },
      { kty: "EC", crv: 256, x, y },
      { kty: "EC", crv, y },
      { kty: "EC", crv, x, y: 1 },
    ])
      await refused(present({ claims: { cnf: { jwk } } }), noKey);
    await refused(
      present({ claims: { cnf: { jwk: { kty: "EC", crv, x: y, y: x } } } }),
      "the SD-JWT VC's holder key is not a valid EC key.",
    );
  });
});

describe("disclosures of object properties", () => {
  it("a disclosure that is not base64url JSON, not an array, or whose salt is not text is refused", async () => {
    await refused(present({ disclosures: [base64url(bytes("[not json"))] }), "a disclosure is not base64url JSON.");
    await refused(present({ disclosures: [over18, json64("salt")] }), "a disclosure is not an array with a salt.");
    const numericSalt = json64([7, "18", true]);
    await refused(
      present({ claims: { age_equal_or_over: { _sd: [await digestOf(numericSalt)] } }, disclosures: [numericSalt] }),
      "a disclosure is not an array with a salt.",
    );
  });

  it("the same disclosure presented twice is refused", async () => {
    await refused(present({ disclosures: [over18, over18] }), "a disclosure is repeated.");
  });

  it("a digest the issuer signed twice, or one that is not text, is refused", async () => {
    const digest = await digestOf(over18);
    await refused(present({ claims: { age_equal_or_over: { _sd: [digest, digest] } } }), "a disclosure is referenced twice.");
    await refused(present({ claims: { age_equal_or_over: { _sd: [digest, 18] } } }), "a selective-disclosure digest is not a string.");
  });

  it("an _sd that is not an array is refused", async () => {
    await refused(present({ claims: { age_equal_or_over: { _sd: await digestOf(over18) } } }), "`_sd` is not an array.");
  });

  it("a property disclosure without a name, or whose name is not text, is refused", async () => {
    for (const shape of [disclosure("18"), json64(["salt", 18, true]), disclosure("18", true, "extra")])
      await refused(
        present({ claims: { age_equal_or_over: { _sd: [await digestOf(shape)] } }, disclosures: [shape] }),
        "an object-property disclosure is not [salt, name, value].",
      );
  });

  it("a disclosure may not name _sd, ..., __proto__ or a claim the issuer signed in the clear (age 18 false turned true)", async () => {
    for (const name of ["_sd", "...", "__proto__", "18"]) {
      const named = disclosure(name, true);
      await refused(
        present({ claims: { age_equal_or_over: { 18: false, _sd: [await digestOf(named)] } }, disclosures: [named] }),
        "a disclosure names a reserved or existing claim.",
      );
    }
  });
});

describe('disclosures of array elements (`{"...": digest}`, RFC 9901 §4.2.4.2)', () => {
  it("are replaced by their value, nested disclosures within them too; decoys and other elements stay as they are", async () => {
    const inner = disclosure("locality", "Berlin");
    const element = disclosure({ _sd: [await digestOf(inner)] });
    const inPlainElement = disclosure("country", "DE");
    const decoy = await digestOf(disclosure("never presented"));
    const claims = {
      addresses: [
        { "...": await digestOf(element) },
        { "...": decoy },
        "plain",
        { street: "in the clear" },
        { _sd: [await digestOf(inPlainElement)] },
        [{ "...": decoy }],
      ],
    };
    expect(await check(await present({ claims, disclosures: [over18, element, inner, inPlainElement] }))).toStrictEqual(OVER_18);
  });

  it("an element disclosure that is not [salt, value] is refused", async () => {
    const named = disclosure("18", true);
    await refused(
      present({ claims: { list: [{ "...": await digestOf(named) }] }, disclosures: [over18, named] }),
      "an array-element disclosure is not [salt, value].",
    );
  });

  it("an element disclosure referenced twice is refused", async () => {
    const element = disclosure("DE");
    const digest = await digestOf(element);
    await refused(
      present({ claims: { list: [{ "...": digest }, { "...": digest }] }, disclosures: [over18, element] }),
      "a disclosure is referenced twice.",
    );
  });

  it("an object with `...` beside another key is not an element digest: its disclosure matches nothing", async () => {
    const element = disclosure("DE");
    await refused(
      present({ claims: { list: [{ "...": await digestOf(element), note: 1 }] }, disclosures: [over18, element] }),
      "a disclosure matches no digest the issuer signed.",
    );
  });
});

describe("the key-binding JWT", () => {
  it("a typ other than kb+jwt is refused", async () => {
    for (const typ of ["JWT", "dc+sd-jwt", undefined])
      await refused(present({ keyBindingHeader: { typ } }), "the key-binding JWT's type is not kb+jwt.");
  });

  it("an iat five minutes away either way verifies; none, or one more second, is refused", async () => {
    for (const iat of [NOW - 300, NOW + 300]) expect(await check(await present({ keyBindingClaims: { iat } }))).toStrictEqual(OVER_18);
    for (const iat of [undefined, NOW - 301, NOW + 301, String(NOW)])
      await refused(present({ keyBindingClaims: { iat } }), "the key-binding JWT was not made for this request (iat).");
  });
});

describe("the age statements that come out", () => {
  it("only age_equal_or_over keys of one to three digits count; other keys are passed over", async () => {
    const claims = { age_equal_or_over: { 18: true, 1234: true, x21: true, "21x": false, "": true, "over 65": "yes", 100: false } };
    expect(await check(await present({ claims, disclosures: [] }))).toStrictEqual([
      { age: 18, over: true, status: null },
      { age: 100, over: false, status: null },
    ]);
  });

  it("no age_equal_or_over gives no statement; a statement that is not a boolean is refused", async () => {
    expect(await check(await present({ claims: { age_equal_or_over: undefined }, disclosures: [] }))).toStrictEqual([]);
    await refused(present({ claims: { age_equal_or_over: { 18: "true" } }, disclosures: [] }), "an age statement is not a boolean.");
  });
});
