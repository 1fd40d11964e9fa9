// TEST ONLY. Issues an SD-JWT VC (RFC 9901 SD-JWT, the SD-JWT VC draft) with selectively disclosable
// `age_equal_or_over` statements, signed with `x5c`, and presents it with a key-binding JWT, as a wallet
// answering OpenID4VP does. JOSE through jose, independent of the service's own JWS checks.
import { SignJWT, exportJWK } from "jose";
import type { Issuer } from "./certificates";
import { base64url, sha256 } from "./cbor";

export type SdJwtVc = { issuerJwt: string; disclosures: Map<string, string>; holderKey: CryptoKeyPair };

const digestOf = async (text: string) => base64url(await sha256(new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>));
const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

export type IssueSdJwtOptions = {
  signer: Issuer;
  chainAfterSigner?: Uint8Array[];
  /** age_equal_or_over statements, e.g. { 18: true, 21: false }. */
  ages: Record<number, boolean>;
  vct?: string;
  expiresAt?: Date;
  /** Sign the issuer JWT with this key instead of the x5c signer's (a forged issuer signature). */
  signingKey?: CryptoKey;
  /** A status reference (IETF Token Status List, `status.status_list`): where the issuer publishes this credential's status. */
  status?: { idx: number; uri: string };
  /** Claims to set in the issuer JWT instead of the usual ones: `exp: undefined` leaves exp out, `exp: "…"` makes it text. */
  claims?: Record<string, unknown>;
};

export async function issueSdJwtVc(options: IssueSdJwtOptions): Promise<SdJwtVc> {
  const holderKey = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const disclosures = new Map<string, string>();
  const digests: string[] = [];
  for (const [age, over] of Object.entries(options.ages)) {
    const name = age.padStart(2, "0");
    const disclosure = base64url(
      new TextEncoder().encode(JSON.stringify([base64url(crypto.getRandomValues(new Uint8Array(16))), name, over])),
    );
    disclosures.set(name, disclosure);
    digests.push(await digestOf(disclosure));
  }
  const { kty, crv, x, y } = await exportJWK(holderKey.publicKey);
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = {
    iss: "https://issuer.test.invalid",
    vct: options.vct ?? "urn:eudi:pid:1",
    cnf: { jwk: { kty, crv, x, y } },
    _sd_alg: "sha-256",
    age_equal_or_over: { _sd: digests.sort() },
    ...(options.status ? { status: { status_list: options.status } } : {}),
    iat: now - 3600,
    exp: Math.floor((options.expiresAt?.getTime() ?? (now + 365 * 86_400) * 1000) / 1000),
    ...options.claims,
  };
  const issuerJwt = await new SignJWT(claims)
    .setProtectedHeader({
      alg: "ES256",
      typ: "dc+sd-jwt",
      x5c: [options.signer.certificate, ...(options.chainAfterSigner ?? [])].map(toBase64),
    })
    .sign(options.signingKey ?? options.signer.privateKey);
  return { issuerJwt, disclosures, holderKey };
}

export type PresentSdJwtOptions = {
  /** Claim names under age_equal_or_over to disclose ("18"). */
  disclose: string[];
  nonce: string;
  audience: string;
  /** Sign the key-binding JWT with another key. */
  keyBindingKey?: CryptoKey;
  /** Put this sd_hash in the key-binding JWT instead of the right one. */
  sdHash?: string;
  issuedAt?: number;
  /** Replace the disclosure of this age with a forged one (new salt, this value): no signed digest matches. */
  forge?: { name: string; value: boolean };
};

export async function presentSdJwtVc(credential: SdJwtVc, options: PresentSdJwtOptions): Promise<string> {
  const chosen = options.disclose.map((name) => {
    const disclosure = credential.disclosures.get(name);
    if (!disclosure) throw new Error(`the test credential holds no age_equal_or_over.${name}`);
    if (options.forge?.name === name)
      return base64url(
        new TextEncoder().encode(JSON.stringify([base64url(crypto.getRandomValues(new Uint8Array(16))), name, options.forge.value])),
      );
    return disclosure;
  });
  const withoutKeyBinding = `${credential.issuerJwt}~${chosen.map((d) => `${d}~`).join("")}`;
  const keyBinding = await new SignJWT({
    nonce: options.nonce,
    aud: options.audience,
    sd_hash: options.sdHash ?? (await digestOf(withoutKeyBinding)),
  })
    .setProtectedHeader({ alg: "ES256", typ: "kb+jwt" })
    .setIssuedAt(options.issuedAt ?? Math.floor(Date.now() / 1000))
    .sign(options.keyBindingKey ?? credential.holderKey.privateKey);
  return withoutKeyBinding + keyBinding;
}
