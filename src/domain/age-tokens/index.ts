// Anonymous age tokens (Privacy Pass, RFC 9576-9578, token type 2; docs/api-contract.md §Age tokens; docs/double-blind.md):
// what this folder offers the routes and the session. Keys come from the AGE_TOKEN_KEYS setting;
// issuance signs blinded requests; redemption verifies a token for this service's one challenge (the
// session's object spends it: src/db/spent-age-tokens.ts); issuanceRefusal decides who may be issued
// tokens from what the caller read of the account.
export { deploymentTokenKeys } from "./deployment-keys";
export {
  ISSUANCE_PATH,
  ISSUER_DIRECTORY_CACHE_CONTROL,
  ISSUER_DIRECTORY_MEDIA_TYPE,
  ISSUER_DIRECTORY_PATH,
  issuerDirectory,
  type IssuerDirectory,
} from "./issuer-directory";
export { issueTokens, MAX_TOKEN_REQUESTS } from "./issuance";
export { issueAgeTokensTo, type IssueRequest, type TokenHolder } from "./issue-to-account";
export { AGE_TOKENS_PER_DAY_DEFAULT, issuanceRefusal, type IssuanceAsk } from "./issuance-eligibility";
export { verifyAgeToken, type RedemptionContext, type SpentAgeToken, type VerifiedAgeToken } from "./redemption";
export { AgeTokenField, IssueAgeTokensInput, IssueAgeTokensOutput, IssuerDirectoryDocument } from "./schemas";
export { ageTokenChallenge, serviceHost, wwwAuthenticateValue } from "./token-challenge";
export {
  AGE_TOKEN_KEYS_SETTING,
  loadTokenKeys,
  publishedKeyIds,
  thresholdsOffered,
  tokenKeysFromSetting,
  TokenKeysMisconfigured,
  type TokenKey,
  type TokenKeys,
} from "./token-keys";
