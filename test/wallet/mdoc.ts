// TEST ONLY. Issues mdocs (ISO/IEC 18013-5 §9.1.2: IssuerSignedItems, an MSO with their digests, signed
// as COSE_Sign1 with x5chain) and presents them (§8.3.2.1.2.2 DeviceResponse, §9.1.3 device signature
// over DeviceAuthentication for a given SessionTranscript), as a wallet does. Knobs make the faults the
// verifier must catch.
import type { Issuer } from "./certificates";
import { Tag, decode, encode, fromBase64url, sha256, tag24, tdate } from "./cbor";

export const MDL = { docType: "org.iso.18013.5.1.mDL", namespace: "org.iso.18013.5.1" };
export const EU_AGE = { docType: "eu.europa.ec.av.1", namespace: "eu.europa.ec.av.1" };

export type Mdoc = {
  docType: string;
  namespace: string;
  /** IssuerSignedItemBytes (the bytes inside tag 24), by element identifier. */
  items: Map<string, Uint8Array<ArrayBuffer>>;
  /** Items of another namespace, always disclosed with the others. */
  otherItems?: { namespace: string; items: Uint8Array<ArrayBuffer>[] };
  issuerAuth: unknown[];
  deviceKey: CryptoKeyPair;
};

export type IssueMdocOptions = {
  kind: typeof MDL | typeof EU_AGE;
  /** The signer (document signer certificate and key) and any certificates after it in x5chain. */
  signer: Issuer;
  chainAfterSigner?: Uint8Array[];
  /** `age_over_NN` elements and their values, e.g. { 18: true, 21: false }. */
  ages: Record<number, boolean>;
  /** Other elements the credential holds (a name, say), to show that they are never asked for. */
  otherElements?: Record<string, string>;
  validFrom?: Date;
  validUntil?: Date;
  /** The MSO names this doctype instead of the document's. */
  msoDocType?: string;
  /** Sign the MSO with this key instead of the signer certificate's (a forged issuer signature). */
  issuerAuthKey?: CryptoKey;
  /** Age elements in another namespace of the same document (they must not count). */
  otherNamespace?: { namespace: string; ages: Record<number, boolean> };
  /** A status reference in the MSO (IETF Token Status List, `status.status_list`): where the issuer publishes this credential's status. */
  status?: { idx: number; uri: string };
  /** The MSO's validityInfo.signed (now by default). */
  signedAt?: Date;
  /** A `crit` header (label 2) on the issuer signature naming these labels, protected unless said otherwise. */
  critical?: { labels: unknown[]; unprotected?: boolean };
};

const es256 = { name: "ECDSA", hash: "SHA-256" } as const;

async function coseKey(publicKey: CryptoKey) {
  const jwk = (await crypto.subtle.exportKey("jwk", publicKey)) as JsonWebKey;
  return new Map<number, unknown>([
    [1, 2],
    [-1, 1],
    [-2, fromBase64url(jwk.x!)],
    [-3, fromBase64url(jwk.y!)],
  ]);
}

/** COSE_Sign1 (RFC 9052) with ES256; `payload` null for a detached payload signed as `detached`. */
export async function sign1(
  privateKey: CryptoKey,
  payload: Uint8Array | null,
  unprotected: Map<number, unknown>,
  detached?: Uint8Array,
  protectedExtra: [number, unknown][] = [],
): Promise<unknown[]> {
  const protectedBytes = encode(new Map<number, unknown>([[1, -7], ...protectedExtra]));
  const toBeSigned = encode(["Signature1", protectedBytes, new Uint8Array(0), payload ?? detached]);
  const signature = new Uint8Array(await crypto.subtle.sign(es256, privateKey, toBeSigned));
  return [protectedBytes, unprotected, payload, signature];
}

export async function issueMdoc(options: IssueMdocOptions): Promise<Mdoc> {
  const { docType, namespace } = options.kind;
  const deviceKey = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const elements: [string, unknown][] = [
    ...Object.entries(options.ages).map(([age, over]) => [`age_over_${age.padStart(2, "0")}`, over] as [string, unknown]),
    ...Object.entries(options.otherElements ?? {}),
  ];
  const items = new Map<string, Uint8Array<ArrayBuffer>>();
  const digests = new Map<number, Uint8Array>();
  for (const [index, [elementIdentifier, elementValue]] of elements.entries()) {
    const bytes = encode(
      new Map<string, unknown>([
        ["digestID", index],
        ["random", crypto.getRandomValues(new Uint8Array(16))],
        ["elementIdentifier", elementIdentifier],
        ["elementValue", elementValue],
      ]),
    );
    items.set(elementIdentifier, bytes);
    digests.set(index, await sha256(encode(new Tag(bytes, 24))));
  }
  const valueDigests = new Map<string, Map<number, Uint8Array>>([[namespace, digests]]);
  let otherItems: Mdoc["otherItems"];
  if (options.otherNamespace) {
    const otherDigests = new Map<number, Uint8Array>();
    const bytesList: Uint8Array<ArrayBuffer>[] = [];
    for (const [index, [age, over]] of Object.entries(options.otherNamespace.ages).entries()) {
      const digestID = 1000 + index;
      const bytes = encode(
        new Map<string, unknown>([
          ["digestID", digestID],
          ["random", crypto.getRandomValues(new Uint8Array(16))],
          ["elementIdentifier", `age_over_${age.padStart(2, "0")}`],
          ["elementValue", over],
        ]),
      );
      bytesList.push(bytes);
      otherDigests.set(digestID, await sha256(encode(new Tag(bytes, 24))));
    }
    valueDigests.set(options.otherNamespace.namespace, otherDigests);
    otherItems = { namespace: options.otherNamespace.namespace, items: bytesList };
  }
  const now = new Date();
  const mso = new Map<string, unknown>([
    ["version", "1.0"],
    ["digestAlgorithm", "SHA-256"],
    ["valueDigests", valueDigests],
    ["deviceKeyInfo", new Map([["deviceKey", await coseKey(deviceKey.publicKey)]])],
    ["docType", options.msoDocType ?? docType],
    [
      "validityInfo",
      new Map([
        ["signed", tdate(options.signedAt ?? now)],
        ["validFrom", tdate(options.validFrom ?? new Date(now.getTime() - 86_400_000))],
        ["validUntil", tdate(options.validUntil ?? new Date(now.getTime() + 365 * 86_400_000))],
      ]),
    ],
  ]);
  if (options.status)
    mso.set(
      "status",
      new Map([
        [
          "status_list",
          new Map<string, unknown>([
            ["idx", options.status.idx],
            ["uri", options.status.uri],
          ]),
        ],
      ]),
    );
  const chain = [options.signer.certificate, ...(options.chainAfterSigner ?? [])];
  const unprotected = new Map<number, unknown>([[33, chain.length === 1 ? chain[0] : chain]]);
  const critical: [number, unknown][] = options.critical ? [[2, options.critical.labels]] : [];
  if (options.critical?.unprotected) unprotected.set(2, options.critical.labels);
  const issuerAuth = await sign1(
    options.issuerAuthKey ?? options.signer.privateKey,
    encode(tag24(mso)),
    unprotected,
    undefined,
    options.critical?.unprotected ? [] : critical,
  );
  return { docType, namespace, items, otherItems, issuerAuth, deviceKey };
}

export type PresentOptions = {
  /** Element identifiers to disclose; by default what the reader asked for (see `elementsFor`). */
  disclose: string[];
  /** Replace a disclosed element's value after signing (its digest then fails). */
  tamper?: { element: string; value: unknown };
  /** Sign DeviceAuthentication with this key instead of the credential's device key. */
  deviceSigningKey?: CryptoKey;
  /**
   * Put the signed DeviceAuthenticationBytes into the device signature's payload slot instead of leaving
   * it nil (18013-5 9.1.3.4 says detached): the forgery that replays a signature made for another request.
   */
  embedDevicePayload?: boolean;
  /** The same document this many times in the DeviceResponse (an answer that asks for more work). */
  copies?: number;
};

/**
 * The elements a wallet returns for a request of `age_over_NN` (ISO/IEC 18013-5 §7.2.5): the element
 * itself if held; else the nearest higher age_over that is true, or the nearest lower that is false.
 */
export function elementsFor(mdoc: Mdoc, requested: string[]): string[] {
  const held = [...mdoc.items.keys()];
  return requested.flatMap((element) => {
    if (held.includes(element)) return [element];
    const match = /^age_over_(\d\d)$/.exec(element);
    if (!match) return [];
    const asked = Number(match[1]);
    const ages = held.flatMap((name) => {
      const m = /^age_over_(\d\d)$/.exec(name);
      if (!m) return [];
      const value = (decode(mdoc.items.get(name)!) as Map<string, unknown>).get("elementValue");
      return [{ name, age: Number(m[1]), value }];
    });
    const higherTrue = ages.filter((a) => a.age > asked && a.value === true).sort((a, b) => a.age - b.age)[0];
    const lowerFalse = ages.filter((a) => a.age < asked && a.value === false).sort((a, b) => b.age - a.age)[0];
    const chosen = higherTrue ?? lowerFalse;
    return chosen ? [chosen.name] : [];
  });
}

/** A DeviceResponse with one document, device-signed for `sessionTranscript`. */
export async function deviceResponse(mdoc: Mdoc, sessionTranscript: unknown, options: PresentOptions): Promise<Uint8Array<ArrayBuffer>> {
  const items = options.disclose.map((element) => {
    let bytes = mdoc.items.get(element);
    if (!bytes) throw new Error(`the test credential holds no ${element}`);
    if (options.tamper?.element === element) {
      const item = decode(bytes) as Map<string, unknown>;
      item.set("elementValue", options.tamper.value);
      bytes = encode(item);
    }
    return new Tag(bytes, 24);
  });
  const deviceNameSpaces = tag24(new Map());
  const deviceAuthentication = encode(tag24(["DeviceAuthentication", sessionTranscript, mdoc.docType, deviceNameSpaces]));
  const deviceSignature = await sign1(options.deviceSigningKey ?? mdoc.deviceKey.privateKey, null, new Map(), deviceAuthentication);
  if (options.embedDevicePayload) deviceSignature[2] = deviceAuthentication;
  return encode(
    new Map<string, unknown>([
      ["version", "1.0"],
      [
        "documents",
        Array.from(
          { length: options.copies ?? 1 },
          () =>
            new Map<string, unknown>([
              ["docType", mdoc.docType],
              [
                "issuerSigned",
                new Map<string, unknown>([
                  [
                    "nameSpaces",
                    new Map([
                      [mdoc.namespace, items],
                      ...(mdoc.otherItems
                        ? [[mdoc.otherItems.namespace, mdoc.otherItems.items.map((bytes) => new Tag(bytes, 24))] as [string, unknown]]
                        : []),
                    ]),
                  ],
                  ["issuerAuth", mdoc.issuerAuth],
                ]),
              ],
              [
                "deviceSigned",
                new Map<string, unknown>([
                  ["nameSpaces", deviceNameSpaces],
                  ["deviceAuth", new Map([["deviceSignature", deviceSignature]])],
                ]),
              ],
            ]),
        ),
      ],
      ["status", 0],
    ]),
  );
}
