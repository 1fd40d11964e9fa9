// POST /credential (OpenID4VCI 1.0 §8; docs/attestations.md): one batch of proof-of-age attestations for
// a live access token, one per proof of possession, each bound to its proof's key. In this order, so
// that a refused request issues nothing and costs no signature: the token is live (401 invalid_token),
// the request asks for proof_of_age with 1 to 30 JWT proofs, every proof checks out (invalid_proof), every
// c_nonce they name is fresh and is spent (invalid_nonce: the wallet fetches a new one and retries with
// the same token), then the token is spent (it works once: of two concurrent requests, one is issued)
// and only then is anything signed. Nothing of what is issued is kept or logged.
import type { ServiceContext } from "../../context/service-context";
import { grantExists, spendGrant } from "./grants";
import { BATCH_SIZE, PROOF_OF_AGE_CONFIGURATION } from "./metadata";
import { oauthError } from "./oauth-error";
import { checkProofs } from "./proofs";
import { issueProofOfAge } from "./proof-of-age-mdoc";
import type { AttestationSigner } from "./signer";

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The proof JWTs of a well-formed request, else invalid_credential_request / unsupported_credential_configuration. */
function proofsOf(body: unknown): unknown[] {
  if (!isRecord(body)) throw oauthError("invalid_credential_request", "The request body must be a JSON object.");
  if (body.credential_configuration_id !== PROOF_OF_AGE_CONFIGURATION) {
    throw oauthError("unsupported_credential_configuration", `credential_configuration_id must be ${PROOF_OF_AGE_CONFIGURATION}.`);
  }
  if (body.proof !== undefined) throw oauthError("invalid_credential_request", "Send proofs: {jwt: [...]}, not proof.");
  const proofs = body.proofs;
  if (!isRecord(proofs) || Object.keys(proofs).length !== 1 || !Array.isArray(proofs.jwt))
    throw oauthError("invalid_credential_request", "proofs must be {jwt: [...]}.");
  if (proofs.jwt.length === 0 || proofs.jwt.length > BATCH_SIZE)
    throw oauthError("invalid_credential_request", `proofs.jwt must hold 1 to ${BATCH_SIZE} proofs.`);
  return proofs.jwt;
}

export async function issueCredentials(
  ctx: ServiceContext,
  signer: AttestationSigner,
  accessToken: string | null,
  body: unknown,
  now: number,
): Promise<{ credentials: { credential: string }[] }> {
  if (!accessToken || !(await grantExists(ctx, "token", accessToken, now)))
    throw oauthError("invalid_token", "The access token is unknown, expired or used.", 401);
  const proofs = await checkProofs(proofsOf(body), ctx.settings.appUrl, now);
  for (const nonce of new Set(proofs.map((proof) => proof.nonce))) {
    if (!(await spendGrant(ctx, "nonce", nonce, now)))
      throw oauthError("invalid_nonce", "A proof's nonce is not a fresh c_nonce: ask the nonce endpoint for a new one.");
  }
  if (!(await spendGrant(ctx, "token", accessToken, now)))
    throw oauthError("invalid_token", "The access token is unknown, expired or used.", 401);
  const credentials = await Promise.all(proofs.map(async (proof) => ({ credential: await issueProofOfAge(signer, proof.deviceKey, now) })));
  return { credentials };
}
