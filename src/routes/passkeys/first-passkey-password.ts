// The `password` field of the first passkey's enrolment and of its registration options: with no passkey
// yet to confirm the change, the account's current password does (src/domain/passkeys). A new schema
// each call, as `passkeyConfirmation()` is, so each operation's document keeps its own copy.
import * as z from "../../lib/lazy-zod";

export const firstPasskeyPassword = () =>
  z
    .optional(z.string().check(z.minLength(1), z.maxLength(128)))
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "The account's current password: required for the account's first passkey (401 INVALID_CREDENTIALS when missing or wrong)."
          : "",
      ),
    );
