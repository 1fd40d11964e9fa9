// Secrets on a terminal or in a CI log: enough of the start to recognise them, never enough to use them.

/** The first `visible` characters (a key's own prefix plus a few), then an ellipsis and the length. */
export function mask(secret: string, visible = 10): string {
  if (secret.length <= visible) return "…";
  return `${secret.slice(0, visible)}…(${secret.length} chars)`;
}
