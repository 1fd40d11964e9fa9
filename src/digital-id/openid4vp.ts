// The `openid4vp-v1-unsigned` protocol of the Digital Credentials API (OpenID4VP 1.0 Appendix A): an
// unsigned request with a DCQL query for the same mdoc age elements and an SD-JWT VC's
// `age_equal_or_over.NN`, answered in response mode `dc_api.jwt`: a JWE to this request's P-256 ECDH-ES
// key (its `kid` in `client_metadata.jwks`). mdocs are bound by the OpenID4VP DC API handover transcript
// (origin, nonce, the key's thumbprint), SD-JWT VCs by their key-binding JWT (nonce, `origin:` audience).
import * as z from "../lib/lazy-zod";
import { fromUtf8, toBase64Url } from "../lib/encoding";
import { readBase64Url } from "./base64";
import { ownEntry } from "./json";
import { AGE_NAMESPACES, EU_AGE_DOCTYPE, MDL_DOCTYPE, MDOC_MAX_AGE, SD_JWT_VC_TYPES, mdocAgeElement, twoDigits } from "./credentials";
import { invalid } from "./failures";
import { decryptEcdhEsJwe } from "./jwe";
import { newEncryptionKey, publicPart } from "./keys";
import { verifyDeviceResponse } from "./mdoc-document";
import { verifySdJwtVc } from "./sd-jwt-vc";
import { ecJwkThumbprint, openId4VpTranscript } from "./transcripts";
import type { AgeClaim } from "./age-outcome";
import type { PendingDigitalIdRequest } from "./pending";
import type { Certificate } from "./x509";

export const OPENID4VP_PROTOCOL = "openid4vp-v1-unsigned";

export const OpenId4VpResponse = z.object({ response: z.string().check(z.minLength(1), z.maxLength(60_000)) });

/** DCQL credential query ids, and the doctype each mdoc query asks for. */
const MDOC_QUERIES: Record<string, string> = { mdl: MDL_DOCTYPE, eu_age: EU_AGE_DOCTYPE };
const SD_JWT_QUERY = "sd_jwt_vc";
const ES_ALGORITHMS = [-7, -35, -36];

function dcqlQuery(ageRequired: number) {
  const mdocs =
    ageRequired > MDOC_MAX_AGE
      ? []
      : Object.entries(MDOC_QUERIES).map(([id, doctype]) => ({
          id,
          format: "mso_mdoc",
          meta: { doctype_value: doctype },
          claims: [{ path: [AGE_NAMESPACES[doctype]!, mdocAgeElement(ageRequired)], intent_to_retain: false }],
        }));
  const sdJwt = {
    id: SD_JWT_QUERY,
    format: "dc+sd-jwt",
    meta: { vct_values: SD_JWT_VC_TYPES },
    claims: [{ path: ["age_equal_or_over", twoDigits(ageRequired)] }],
  };
  const credentials = [...mdocs, sdJwt];
  return { credentials, credential_sets: [{ options: credentials.map((credential) => [credential.id]) }] };
}

export async function createOpenId4VpRequest(ageRequired: number) {
  const privateKey = { ...(await newEncryptionKey()), kid: toBase64Url(crypto.getRandomValues(new Uint8Array(12))) };
  const nonce = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  const data = {
    response_type: "vp_token",
    response_mode: "dc_api.jwt",
    nonce,
    dcql_query: dcqlQuery(ageRequired),
    client_metadata: {
      jwks: { keys: [{ ...publicPart(privateKey), use: "enc", alg: "ECDH-ES", kid: privateKey.kid }] },
      encrypted_response_enc_values_supported: ["A128GCM"],
      vp_formats_supported: {
        mso_mdoc: { issuerauth_alg_values: ES_ALGORITHMS, deviceauth_alg_values: ES_ALGORITHMS },
        "dc+sd-jwt": { "sd-jwt_alg_values": ["ES256", "ES384", "ES512"], "kb-jwt_alg_values": ["ES256", "ES384", "ES512"] },
      },
    },
  };
  return { request: { protocol: OPENID4VP_PROTOCOL, data }, pending: { nonce, privateKey } };
}

const VpToken = z.record(z.string(), z.array(z.string().check(z.minLength(1))).check(z.length(1)));

/** Decrypts the response and verifies the one presentation in its `vp_token`. */
export async function verifyOpenId4VpResponse(
  data: z.infer<typeof OpenId4VpResponse>,
  pending: PendingDigitalIdRequest["openId4Vp"],
  origin: string,
  anchors: Certificate[],
  now: Date,
): Promise<AgeClaim[]> {
  const plaintext = await decryptEcdhEsJwe(data.response, pending.privateKey);
  let vpToken: z.infer<typeof VpToken>;
  try {
    vpToken = VpToken.parse(JSON.parse(fromUtf8(plaintext)).vp_token);
  } catch {
    throw invalid("the response holds no `vp_token` with one presentation per credential.");
  }
  const entries = Object.entries(vpToken);
  if (entries.length !== 1) throw invalid("the response must answer exactly one credential query.");
  const [id, [presentation]] = entries[0]!;
  if (id === SD_JWT_QUERY) return verifySdJwtVc(presentation!, { nonce: pending.nonce, audience: `origin:${origin}` }, anchors, now);
  const doctype = ownEntry(MDOC_QUERIES, id);
  if (!doctype) throw invalid("the response answers a credential query this request did not make.");
  const deviceResponse = readBase64Url(presentation!, "the mdoc presentation");
  const transcript = await openId4VpTranscript(origin, pending.nonce, await ecJwkThumbprint(pending.privateKey));
  // verifyDeviceResponse checks each document's doctype against the accepted ones; the query fixes which.
  const ages = await verifyDeviceResponse(deviceResponse, transcript, anchors, now, doctype);
  return ages;
}
