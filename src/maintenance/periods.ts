// The maintenance jobs' fixed values. Their settings (retention days, the callback stall) are parsed with
// every other setting in src/config/settings.ts.
/** Fixed, not a setting: long enough to answer "did my mail fail?", no longer (src/maintenance/prune-mail-failures.ts). */
export const MAIL_FAILURE_RETENTION_DAYS = 30;
