// A signing secret sealed the way 1.0.0 stored it: tag "v1", additional data "v1" only (no row
// binding), AES-GCM under SHA-256 of SECRETS_KEY's bytes. Written out here, not with the code under test.
import { fromBase64Url, toBase64Url, utf8 } from "../../src/lib/encoding";

export async function legacySeal(plaintext: string, secret: string): Promise<string> {
  const raw = await crypto.subtle.digest("SHA-256", fromBase64Url(secret));
  const key = await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt"]);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ciphertext = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: utf8("v1") }, key, utf8(plaintext));
  return `v1.${toBase64Url(iv)}.${toBase64Url(ciphertext)}`;
}
