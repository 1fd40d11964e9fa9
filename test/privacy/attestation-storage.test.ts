// Nothing of an issued proof-of-age attestation is kept or logged (docs/attestations.md): after batches
// issued by both grants, every table on every D1 shard and every log line written meanwhile are scanned
// for each attestation's device key, salt, MSO and signature (and the whole credential), in hex, base64
// and base64url; the grants used are gone; no grant row names the account; the account's one trace is
// its day's count.
import { describe, expect, it, vi } from "vitest";
import { shardBindings } from "../helpers/shards";
import { call } from "../helpers/http";
import { decode, fromBase64url, type Tag } from "../wallet/cbor";
import { credentialsOf, offerFor, verifiedAdult } from "../attestations/helpers";
import { proofsFor, standardClient } from "../attestations/standard-wallet";

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const b64url = (bytes: Uint8Array) => b64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
/** A value as every text form it could be stored or logged in (a long enough slice of each). */
const forms = (bytes: Uint8Array) => [hex(bytes), hex(bytes).toUpperCase(), b64(bytes).slice(0, 40), b64url(bytes).slice(0, 40)];

/** Every row of every table on every shard, as one text (blobs as hex). */
async function everythingStored(): Promise<string> {
  const parts: string[] = [];
  for (const d1 of shardBindings()) {
    const { results } = await d1
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'")
      .all<{ name: string }>();
    for (const { name } of results) {
      const rows = (await d1.prepare(`SELECT * FROM ${name}`).all<Record<string, unknown>>()).results;
      for (const row of rows)
        parts.push(
          `${name}:${Object.values(row)
            .map((value) => (value instanceof ArrayBuffer ? hex(new Uint8Array(value)) : String(value)))
            .join("|")}`,
        );
    }
  }
  return parts.join("\n");
}

/** What an attestation holds that must never be kept: device key coordinates, the salt, the MSO, the signature, the credential. */
function secretsOf(credential: string): Uint8Array[] {
  const issuerSigned = decode(fromBase64url(credential)) as Map<string, any>;
  const [, , payload, signature] = issuerSigned.get("issuerAuth") as [Uint8Array, unknown, Uint8Array, Uint8Array];
  const mso = decode((decode(payload) as Tag).value as Uint8Array) as Map<string, any>;
  const deviceKey = mso.get("deviceKeyInfo").get("deviceKey") as Map<number, Uint8Array>;
  const item = decode((issuerSigned.get("nameSpaces").get("eu.europa.ec.av.1") as Tag[])[0]!.value as Uint8Array) as Map<string, unknown>;
  return [
    deviceKey.get(-2)!,
    deviceKey.get(-3)!,
    item.get("random") as Uint8Array,
    payload.subarray(payload.length - 64),
    signature,
    fromBase64url(credential).subarray(0, 48),
  ];
}

async function pkceChallenge(verifier: string) {
  return b64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
}

describe("after issuing, nothing of an attestation is stored or logged", () => {
  it("scans every shard's tables and every log line for each attestation's device keys, salts, MSOs and signatures", async () => {
    const logged: string[] = [];
    for (const level of ["log", "info", "warn", "error", "debug"] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
    }
    const account = await verifiedAdult();
    const client = standardClient();
    const issuerMetadata = await client.resolveIssuerMetadata((await offerFor(account.token)).credential_offer.credential_issuer);
    const credentials: string[] = [];
    // Two batches by the pre-authorized code.
    for (let batch = 0; batch < 2; batch++) {
      const offer = await offerFor(account.token);
      const credentialOffer = await client.resolveCredentialOffer(offer.credential_offer_uri);
      const { accessTokenResponse } = await client.retrievePreAuthorizedCodeAccessTokenFromOffer({
        credentialOffer,
        issuerMetadata,
        txCode: offer.tx_code,
      });
      const { c_nonce } = await client.requestNonce({ issuerMetadata });
      const { jwts } = await proofsFor(client, issuerMetadata, c_nonce, 5);
      credentials.push(
        ...credentialsOf(
          await client.retrieveCredentials({
            issuerMetadata,
            accessToken: accessTokenResponse.access_token,
            credentialConfigurationId: "proof_of_age",
            proofs: { jwt: jwts },
          }),
        ),
      );
    }
    // One by the authorization code.
    const verifier = "v".repeat(50);
    const approved = await call("POST", "/api/attestations/authorizations", {
      token: account.token,
      body: {
        response_type: "code",
        scope: "proof_of_age",
        client_id: "w",
        redirect_uri: "eu.europa.ec.av://cb",
        code_challenge: await pkceChallenge(verifier),
        code_challenge_method: "S256",
      },
    });
    const code = new URL(approved.body.data.redirect_to).searchParams.get("code")!;
    const { accessTokenResponse } = await client.retrieveAuthorizationCodeAccessTokenFromOffer({
      credentialOffer: {
        credential_issuer: issuerMetadata.credentialIssuer.credential_issuer,
        credential_configuration_ids: ["proof_of_age"],
        grants: { authorization_code: {} },
      },
      issuerMetadata,
      authorizationCode: code,
      pkceCodeVerifier: verifier,
      redirectUri: "eu.europa.ec.av://cb",
    });
    const { c_nonce } = await client.requestNonce({ issuerMetadata });
    const { jwts } = await proofsFor(client, issuerMetadata, c_nonce, 3);
    credentials.push(
      ...credentialsOf(
        await client.retrieveCredentials({
          issuerMetadata,
          accessToken: accessTokenResponse.access_token,
          credentialConfigurationId: "proof_of_age",
          proofs: { jwt: jwts },
        }),
      ),
    );
    vi.restoreAllMocks();
    expect(credentials).toHaveLength(13);

    const stored = await everythingStored();
    const logs = logged.join("\n");
    for (const credential of credentials) {
      for (const secret of secretsOf(credential)) {
        for (const form of forms(secret)) {
          expect(stored.includes(form), `stored: ${form}`).toBe(false);
          expect(logs.includes(form), `logged: ${form}`).toBe(false);
        }
      }
    }
    // No grant row names the account, and the grants this account used are spent.
    const grants = stored.split("\n").filter((line) => line.startsWith("attestation_grants:"));
    expect(grants.some((line) => line.includes(account.user.id))).toBe(false);
    expect(stored).not.toContain(code);
    expect(stored).not.toContain(accessTokenResponse.access_token);
  });
});
