// The vocabulary of how a session was answered (docs/api-contract.md §Sessions, §Session policy): the assurance behind an answer, how
// the person who answered was bound to it, and why a DENIED session was denied. One list each, read by
// the state machine, the views, the receipts, the session log and the open request's policy. The lists
// live with the session log's columns (src/db/schema.ts), which store them.
import { ASSURANCES, DENIAL_REASONS, HOLDER_BINDINGS } from "../db/schema";

export { ASSURANCES, DENIAL_REASONS, HOLDER_BINDINGS };

/** KYC_VERIFIED: a document and face checked by the identity provider; DIGITAL_ID_VERIFIED: a wallet credential. */
export type Assurance = (typeof ASSURANCES)[number];

/** PASSWORD, PASSKEY: an account's approval; DEVICE_KEY: a wallet's device signature; ANONYMOUS_TOKEN: a blind-signed age token. */
export type HolderBindingName = (typeof HOLDER_BINDINGS)[number];

/** UNDER_AGE: a verified age or a credential says under age_required; DECLINED: the person said no. */
export type DenialReason = (typeof DENIAL_REASONS)[number];
