// The `confirmation` field: an assertion by one of the account's passkeys, so that a known password alone
// cannot add or remove a passkey (`confirmation`) nor obtain age tokens or attestations (`passkeyConfirmation()`).
import { AssertionCredential } from "../../domain/passkeys";
import * as z from "../../lib/lazy-zod";

export const confirmation = z
  .optional(AssertionCredential)
  .check(
    z.describe(
      OPENAPI_METADATA
        ? "Required when the account already has a passkey: an assertion by one of them over the challenge from POST /api/users/me/passkeys/confirmation-options (without it: 403 PASSKEY_REQUIRED), so a known password cannot add or remove passkeys."
        : "",
    ),
  );

/** The same field on the requests that hand a verified adult age tokens or attestations; a new schema each call. */
export const passkeyConfirmation = () =>
  z
    .optional(AssertionCredential)
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "Required when the account has a passkey: an assertion by one of them over the challenge from POST /api/users/me/passkeys/confirmation-options (without it: 403 PASSKEY_REQUIRED)."
          : "",
      ),
    );
