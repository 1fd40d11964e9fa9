// Reading one entry of a Status List (draft-ietf-oauth-status-list §4.1): a byte array, zlib DEFLATE
// compressed (RFC 1950), `bits` (1, 2, 4 or 8) per entry, entry i at bit i*bits counted from the least
// significant bit of each byte. Only the bytes up to the entry are inflated, and never more than
// MAX_INFLATED_BYTES (docs/limits.md): a small signed list can inflate to gigabytes.
import { invalid } from "./failures";

/** How far into the decompressed list an index may point (4 MiB: 33 million entries at one bit). */
export const MAX_INFLATED_BYTES = 4 * 1024 * 1024;

export const STATUS_BITS = [1, 2, 4, 8] as const;

/** The status at `idx` in the compressed list `lst` of `bits` per entry. */
export async function statusAt(lst: Uint8Array<ArrayBuffer>, bits: number, idx: number): Promise<number> {
  const bit = idx * bits;
  const byteIndex = Math.floor(bit / 8);
  if (byteIndex >= MAX_INFLATED_BYTES) throw invalid("the credential's index lies beyond the 4 MiB of a status list this service reads.");
  const reader = new Blob([lst]).stream().pipeThrough(new DecompressionStream("deflate")).getReader();
  let inflated = 0;
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        throw invalid("the status list is not zlib-compressed.");
      }
      if (chunk.done) throw invalid("the credential's index lies beyond the list's end.");
      if (byteIndex < inflated + chunk.value.length) return (chunk.value[byteIndex - inflated]! >> (bit % 8)) & ((1 << bits) - 1);
      inflated += chunk.value.length;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
