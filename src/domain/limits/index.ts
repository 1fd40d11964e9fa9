// Per-account limits counted in D1 windows (docs/limits.md): hours and days the rate-limiting binding
// cannot express.
export { countAccountUse, counterKeys, refuseOverLimit, upsertCounter } from "./account-limits";
