// TEST ONLY. A standard OpenID4VCI client (@openid4vc/openid4vci's Openid4vciClient) as the wallet, over
// whatever fetch the caller gives it: the Worker itself inside workerd (standard-wallet.ts), or a running
// server from Node (the browser tests, test/e2e). Its JWTs are signed with Web Crypto keys the test holds
// (so a test can present what it was issued). Each device key's private half stays here.
import { Openid4vciClient } from "@openid4vc/openid4vci";
import { setGlobalConfig, type CallbackContext, type JwtSigner } from "@openid4vc/oauth2";
import { base64url } from "../wallet/cbor";

// Development's APP_URL is http://localhost:<port>: the client refuses plain http unless told otherwise.
setGlobalConfig({ allowInsecureUrls: true });

const es256 = { name: "ECDSA", namedCurve: "P-256" } as const;
const text = (value: unknown) => base64url(new TextEncoder().encode(JSON.stringify(value)));

/** Device keys by their public x, so the signer callback can find the private half. */
const keysByX = new Map<string, CryptoKeyPair>();

export async function newDeviceKey(): Promise<{ pair: CryptoKeyPair; jwk: JsonWebKey }> {
  const pair = (await crypto.subtle.generateKey(es256, true, ["sign", "verify"])) as CryptoKeyPair;
  const { kty, crv, x, y } = (await crypto.subtle.exportKey("jwk", pair.publicKey)) as JsonWebKey;
  keysByX.set(x!, pair);
  return { pair, jwk: { kty, crv, x, y } };
}

export function openid4vciClient(fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>) {
  const callbacks: Omit<CallbackContext, "verifyJwt" | "decryptJwe" | "encryptJwe"> = {
    fetch: fetch as CallbackContext["fetch"],
    hash: async (data, alg) =>
      new Uint8Array(
        await crypto.subtle.digest(
          alg === "sha-256" ? "SHA-256" : alg === "sha-384" ? "SHA-384" : "SHA-512",
          data as Uint8Array<ArrayBuffer>,
        ),
      ),
    generateRandom: (length) => crypto.getRandomValues(new Uint8Array(length)),
    clientAuthentication: () => undefined,
    signJwt: async (signer: JwtSigner, jwt) => {
      if (signer.method !== "jwk") throw new Error("this wallet signs with a jwk only");
      const pair = keysByX.get(signer.publicJwk.x as string);
      if (!pair) throw new Error("unknown device key");
      const input = `${text(jwt.header)}.${text(jwt.payload)}`;
      const signature = new Uint8Array(
        await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, pair.privateKey, new TextEncoder().encode(input)),
      );
      return { jwt: `${input}.${base64url(signature)}`, signerJwk: signer.publicJwk };
    },
  };
  return new Openid4vciClient({ callbacks });
}

/** `count` device keys and their proofs for one c_nonce, built by the standard client. */
export async function proofsFor(
  client: Openid4vciClient,
  issuerMetadata: Awaited<ReturnType<Openid4vciClient["resolveIssuerMetadata"]>>,
  nonce: string,
  count: number,
) {
  const keys = await Promise.all(Array.from({ length: count }, () => newDeviceKey()));
  const jwts = await Promise.all(
    keys.map(
      async ({ jwk }) =>
        (
          await client.createCredentialRequestJwtProof({
            issuerMetadata,
            credentialConfigurationId: "proof_of_age",
            nonce,
            signer: { method: "jwk", alg: "ES256", publicJwk: jwk as never },
          })
        ).jwt,
    ),
  );
  return { keys, jwts };
}
