// A software WebAuthn authenticator, written from the specification and independent of the code under
// test: a P-256 key pair (Web Crypto) signs authenticator data and the hash of the client data JSON as
// a browser and a platform authenticator would, with a small CBOR encoder for the attestation object
// ('none') and the COSE key. Every knob a test needs to forge a bad response is an option.

const encoder = new TextEncoder();

export const b64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
export const fromB64url = (text: string): Uint8Array => {
  const padded = text.replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(padded + "=".repeat((4 - (padded.length % 4)) % 4)), (c) => c.charCodeAt(0));
};

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

const sha256 = async (bytes: Uint8Array) => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));

// RFC 8949 major types 0-5, enough for an attestation object and a COSE key.
type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;
function head(major: number, length: number): Uint8Array {
  if (length < 24) return Uint8Array.of((major << 5) | length);
  if (length < 256) return Uint8Array.of((major << 5) | 24, length);
  return Uint8Array.of((major << 5) | 25, length >> 8, length & 0xff);
}
export function cbor(value: Cbor): Uint8Array {
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") {
    const bytes = encoder.encode(value);
    return concat(head(3, bytes.length), bytes);
  }
  if (value instanceof Uint8Array) return concat(head(2, value.length), value);
  return concat(head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)]));
}

/** An ECDSA signature from Web Crypto (r || s) as the DER SEQUENCE authenticators send. */
function toDer(raw: Uint8Array): Uint8Array {
  const integer = (bytes: Uint8Array) => {
    let i = 0;
    while (i < bytes.length - 1 && bytes[i] === 0) i++;
    let body = bytes.slice(i);
    if (body[0]! & 0x80) body = concat(Uint8Array.of(0), body);
    return concat(Uint8Array.of(0x02, body.length), body);
  };
  const body = concat(integer(raw.slice(0, 32)), integer(raw.slice(32)));
  return concat(Uint8Array.of(0x30, body.length), body);
}

export type Forgery = {
  origin?: string;
  rpId?: string;
  type?: string;
  userVerified?: boolean;
  userPresent?: boolean;
  /** The counter to report; by default it moves forward by one each time. */
  counter?: number;
  challenge?: string;
  /** The client data's crossOrigin: true is a ceremony run in a frame of another origin (topOrigin names it). */
  crossOrigin?: boolean;
  topOrigin?: string;
  /**
   * The public key a registration carries, as COSE: the authenticator's own ES256 (P-256) key by default;
   * "ed25519" an EdDSA (OKP) key; "es384" an EC2 key labelled ES384 (alg -35) on P-384; "p256-es384-label"
   * the authenticator's P-256 key labelled ES384; "p256-no-alg" its P-256 key with no algorithm.
   */
  key?: "ed25519" | "es384" | "p256-es384-label" | "p256-no-alg";
};

export const ORIGIN = "http://localhost:8787";
export const RP_ID = "localhost";

export class SoftwareAuthenticator {
  readonly credentialId = crypto.getRandomValues(new Uint8Array(16));
  private counter = 0;
  private constructor(private readonly keys: CryptoKeyPair) {}

  static async create(): Promise<SoftwareAuthenticator> {
    const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
    return new SoftwareAuthenticator(keys);
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private async authenticatorData(forgery: Forgery, attested?: Uint8Array): Promise<Uint8Array> {
    const flags = (forgery.userPresent === false ? 0 : 0x01) | (forgery.userVerified === false ? 0 : 0x04) | (attested ? 0x40 : 0);
    const counter = forgery.counter ?? ++this.counter;
    const counterBytes = Uint8Array.of(counter >>> 24, (counter >>> 16) & 0xff, (counter >>> 8) & 0xff, counter & 0xff);
    return concat(await sha256(encoder.encode(forgery.rpId ?? RP_ID)), Uint8Array.of(flags), counterBytes, attested ?? new Uint8Array());
  }

  private clientData(type: string, challenge: string, forgery: Forgery): Uint8Array {
    return encoder.encode(
      JSON.stringify({
        type: forgery.type ?? type,
        challenge: forgery.challenge ?? challenge,
        origin: forgery.origin ?? ORIGIN,
        crossOrigin: forgery.crossOrigin ?? false,
        ...(forgery.topOrigin ? { topOrigin: forgery.topOrigin } : {}),
      }),
    );
  }

  /** The COSE_Key (RFC 9053) a registration carries: labels 1 kty, 3 alg, -1 crv, -2 x, -3 y. */
  private async coseKey(kind: Forgery["key"]): Promise<Uint8Array> {
    const own = (await crypto.subtle.exportKey("jwk", this.keys.publicKey)) as JsonWebKey;
    const ec2 = (alg: number | null, crv: number, jwk: JsonWebKey) =>
      cbor(
        new Map<Cbor, Cbor>([
          [1, 2],
          ...(alg === null ? [] : [[3, alg] as [Cbor, Cbor]]),
          [-1, crv],
          [-2, fromB64url(jwk.x!)],
          [-3, fromB64url(jwk.y!)],
        ]),
      );
    switch (kind) {
      case undefined:
        return ec2(-7, 1, own);
      case "p256-es384-label":
        return ec2(-35, 1, own);
      case "p256-no-alg":
        return ec2(null, 1, own);
      case "es384": {
        const other = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-384" }, true, ["sign", "verify"])) as CryptoKeyPair;
        return ec2(-35, 2, (await crypto.subtle.exportKey("jwk", other.publicKey)) as JsonWebKey);
      }
      case "ed25519": {
        const other = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
        const jwk = (await crypto.subtle.exportKey("jwk", other.publicKey)) as JsonWebKey;
        return cbor(
          new Map<Cbor, Cbor>([
            [1, 1],
            [3, -8],
            [-1, 6],
            [-2, fromB64url(jwk.x!)],
          ]),
        );
      }
    }
  }

  /** navigator.credentials.create() answered, as PublicKeyCredential.toJSON() shows it. */
  async register(options: { challenge: string }, forgery: Forgery = {}) {
    const coseKey = await this.coseKey(forgery.key);
    const attested = concat(new Uint8Array(16), Uint8Array.of(0, this.credentialId.length), this.credentialId, coseKey);
    const authData = await this.authenticatorData({ counter: 0, ...forgery }, attested);
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(this.clientData("webauthn.create", options.challenge, forgery)),
        attestationObject: b64url(attestationObject),
      },
    };
  }

  /** navigator.credentials.get() answered, as PublicKeyCredential.toJSON() shows it. */
  async assert(options: { challenge: string }, forgery: Forgery = {}) {
    const authData = await this.authenticatorData(forgery);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, forgery);
    const signed = concat(authData, await sha256(clientDataJSON));
    const raw = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, this.keys.privateKey, signed));
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authData), signature: b64url(toDer(raw)) },
    };
  }
}
