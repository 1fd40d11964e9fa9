// Attestation grants past their expiry (src/domain/attestations/grants.ts): offers, codes, access tokens
// and c_nonces that were never used. A dead grant answers nothing already (every use checks expires_at),
// so deleting it changes no answer; it only keeps the table to the few minutes of live grants.
import { deleteInBatches } from "./batch-delete";

export const pruneAttestationGrants = (db: D1Database, now: Date) =>
  deleteInBatches(db, "attestation_grants", "expires_at <= ?", [now.toISOString()]);
