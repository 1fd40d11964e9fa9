// The one Hono environment type: bindings from wrangler.toml, and what middleware hands to handlers.
import type { Bindings } from "../config/settings";
import type { UserRow } from "../db/schema";
import type { AuthenticatedKey } from "../domain/keys";
import type { ServiceContext } from "../context/service-context";
import type { AccountClaims } from "../lib/jwt";
import type { SessionRequest } from "../session/session-view";

export type AppEnv = {
  Bindings: Bindings;
  Variables: {
    requestId: string;
    /** Set first for every request: the database handle and configuration domain functions take. */
    ctx: ServiceContext;
    /** Set by the Bearer middleware: the signed-in account, loaded once per request. */
    user: UserRow;
    /** Set by the X-API-Key middleware: the merchant key with its account's company name. */
    apiKey: AuthenticatedKey;
    /** Set by requireUserReadingVerifiedDob: the provider-verified date of birth, or null. */
    verifiedDob: string | null;
    /** Set by requireAccountToken: the verified JWT's claims, before any read of the account. */
    accountClaims: AccountClaims;
    /** Set by the completion handler once loadAnswerer accepted the account (src/http/require-user.ts). */
    accountChecked: true;
    /** Set by noAccountOnDoubleBlind when it read the session (a request with an Authorization header): read once. */
    openedSession: SessionRequest;
  };
};
