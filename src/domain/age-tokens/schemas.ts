// The request and response shapes of the age-token routes (docs/api-contract.md §Age tokens), for the routes' validator and
// the OpenAPI document. Sizes are the wire format's, so an oversized string is refused before decoding;
// what the bytes mean is checked by issueTokens and verifyAgeToken.
import * as z from "../../lib/lazy-zod";
import { MAX_TOKEN_REQUESTS } from "./issuance";
import { TOKEN_BYTES, TOKEN_REQUEST_BYTES } from "./wire-format";

/** Characters of base64url for `bytes` bytes, with its padding when sent. */
const base64UrlLength = (bytes: number) => Math.ceil(bytes / 3) * 4;
const base64Url = (bytes: number) => z.string().check(z.maxLength(base64UrlLength(bytes)), z.regex(/^[A-Za-z0-9_-]+={0,2}$/, "base64url"));

export const IssueAgeTokensInput = z.object({
  age_over: z
    .int()
    .check(
      z.gte(1),
      z.lte(150),
      z.describe(OPENAPI_METADATA ? "The threshold the tokens vouch for: one of the issuer directory's age_over values." : ""),
    ),
  token_requests: z
    .array(base64Url(TOKEN_REQUEST_BYTES))
    .check(
      z.minLength(1),
      z.maxLength(MAX_TOKEN_REQUESTS),
      z.describe(OPENAPI_METADATA ? `1 to ${MAX_TOKEN_REQUESTS} TokenRequests (RFC 9578 §6.1, token type 2), each base64url.` : ""),
    ),
});

export const IssueAgeTokensOutput = z.object({
  token_responses: z
    .array(z.string())
    .check(
      z.describe(
        OPENAPI_METADATA ? "One TokenResponse (the blind signature, RFC 9578 §6.2) per request, base64url, in the same order." : "",
      ),
    ),
});

/** The `age_token` of an anonymous complete: one Token (RFC 9577 §2.2), base64url. */
export const AgeTokenField = base64Url(TOKEN_BYTES).check(
  z.describe(OPENAPI_METADATA ? "An anonymous age token (Privacy Pass token type 2, RFC 9577 §2.2), base64url." : ""),
);

export const IssuerDirectoryDocument = z.object({
  "issuer-request-uri": z.string(),
  "token-keys": z.array(z.object({ "token-type": z.literal(2), "token-key": z.string(), age_over: z.int() })),
});
