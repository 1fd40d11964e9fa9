// Anonymous age tokens (docs/api-contract.md §Age tokens): the issuer directory, mounted at /.well-known, and issuance,
// mounted at /api/age-tokens. Redemption is the session's /complete (routes/verification/complete-session.ts).
import { areaOf } from "../named-route";
import { issueAgeTokensRoute } from "./issue-age-tokens";
import { readIssuerDirectoryRoute } from "./read-issuer-directory";

export const issuerDirectoryRoutes = areaOf(readIssuerDirectoryRoute);
export const ageTokenRoutes = areaOf(issueAgeTokensRoute);
