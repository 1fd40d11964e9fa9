// Merchant API keys (docs/api-contract.md §Keys): creating, listing, revoking, and authenticating a presented key.
export { authenticateApiKey, type AuthenticatedKey, isApiKeyShaped, lastUsedIsStale, touchLastUsed } from "./api-key-auth";
export { ApiKeyRecord, createApiKey, hashApiKey, listApiKeys, MAX_ACTIVE_KEYS, revokeApiKey, toApiKeyRecord } from "./api-keys";
