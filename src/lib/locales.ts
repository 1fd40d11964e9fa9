// The languages of the end user's pages (CONTRACT §12 `locale`). The console stays English.
export const LOCALES = ["en", "fr", "de", "es", "it"] as const;
export type Locale = (typeof LOCALES)[number];
