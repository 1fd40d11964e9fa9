// The one Hono environment type: bindings from wrangler.toml, and what middleware hands to handlers.
import type { Bindings } from "../config";
import type { UserRow } from "../db/schema";
import type { AuthenticatedKey } from "../domain/api-key-auth";
import type { DomainContext } from "../domain/context";

export type AppEnv = {
  Bindings: Bindings;
  Variables: {
    requestId: string;
    /** Set first for every request: the database handle and configuration domain functions take. */
    ctx: DomainContext;
    /** Set by the Bearer middleware: the signed-in account, loaded once per request. */
    user: UserRow;
    /** Set by the X-API-Key middleware: the merchant key with its account's company name. */
    apiKey: AuthenticatedKey;
    /** Set by requireUserWithVerifiedDob: the provider-verified date of birth, or null. */
    verifiedDob: string | null;
    /** Set by requireUserWithVerifiedDob: whether the account holds a passkey (its approvals need one). */
    hasPasskey: boolean;
  };
};
