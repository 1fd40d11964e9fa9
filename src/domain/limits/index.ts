// Per-account limits counted in D1 windows (docs/limits.md): hours and days the rate-limiting binding
// cannot express.
export {
  ACCOUNT_LIMITS,
  countAccountUse,
  counterKeys,
  limitOf,
  refuseOverLimit,
  type AccountLimitName,
  type CounterKey,
} from "./account-limits";
