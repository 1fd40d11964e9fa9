// The `confirmation` field of the requests that add or remove a passkey: an assertion by one of the
// account's passkeys, so that a known password alone cannot change them.
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
