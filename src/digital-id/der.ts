// A DER reader (X.690) for the few ASN.1 shapes certificates and ECDSA signatures use: tag-length-value
// items, each keeping its exact encoded bytes (what a certificate's signature covers). Written here
// because @oslojs/asn1 adds 18 KB minified to the Worker for its encoders and real-number support,
// which reading certificates does not need. Throws on anything that is not definite-length DER.
export type Der = {
  /** Tag class: 0 universal, 1 application, 2 context-specific, 3 private. */
  tagClass: number;
  constructed: boolean;
  tag: number;
  contents: Uint8Array<ArrayBuffer>;
  /** The whole item, header included. */
  encoded: Uint8Array<ArrayBuffer>;
};

export const UNIVERSAL = {
  BOOLEAN: 1,
  INTEGER: 2,
  BIT_STRING: 3,
  OCTET_STRING: 4,
  OID: 6,
  UTC_TIME: 23,
  GENERALIZED_TIME: 24,
  SEQUENCE: 16,
};

function readItem(bytes: Uint8Array<ArrayBuffer>, start: number): Der {
  let offset = start;
  const first = bytes[offset++];
  if (first === undefined || (first & 0x1f) === 0x1f) throw new Error("DER: bad or long-form tag");
  let length = bytes[offset++];
  if (length === undefined || length === 0x80) throw new Error("DER: bad length");
  if (length > 0x80) {
    const count = length & 0x7f;
    if (count > 3) throw new Error("DER: length too large");
    if (bytes[offset] === 0) throw new Error("DER: length not minimal");
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + (bytes[offset++] ?? Number.NaN);
    if (Number.isNaN(length) || length < 0x80) throw new Error("DER: length not minimal");
  }
  const end = offset + length;
  if (end > bytes.length) throw new Error("DER: truncated");
  return {
    tagClass: first >> 6,
    constructed: (first & 0x20) !== 0,
    tag: first & 0x1f,
    contents: bytes.subarray(offset, end),
    encoded: bytes.subarray(start, end),
  };
}

/** One item filling all of `bytes`. */
export function parseDer(bytes: Uint8Array<ArrayBuffer>): Der {
  const item = readItem(bytes, 0);
  if (item.encoded.length !== bytes.length) throw new Error("DER: trailing bytes");
  return item;
}

/** The items inside a constructed item (a SEQUENCE's elements). */
export function children(item: Der): Der[] {
  if (!item.constructed) throw new Error("DER: not constructed");
  const items: Der[] = [];
  for (let offset = 0; offset < item.contents.length; ) {
    const child = readItem(item.contents, offset);
    items.push(child);
    offset += child.encoded.length;
  }
  return items;
}

/** Universal types DER encodes constructed (X.690 §8.9, §8.11); every other one this reader meets is primitive. */
const CONSTRUCTED_TYPES = new Set([UNIVERSAL.SEQUENCE, 17]);

/**
 * A universal item of the given tag, or an error naming what was expected. The constructed bit must be
 * the type's own: a flipped bit outside a certificate's signed part would otherwise leave a second
 * spelling of the same certificate.
 */
export function expect(item: Der | undefined, tag: number): Der {
  if (item?.tagClass !== 0 || item.tag !== tag) throw new Error(`DER: expected universal tag ${tag}`);
  if (item.constructed !== CONSTRUCTED_TYPES.has(tag)) throw new Error(`DER: universal tag ${tag} with the wrong constructed bit`);
  return item;
}

export function oid(item: Der | undefined): string {
  const bytes = expect(item, UNIVERSAL.OID).contents;
  const parts: number[] = [];
  let current = 0;
  for (const byte of bytes) {
    current = current * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) {
      parts.push(current);
      current = 0;
    }
  }
  const first = parts.shift() ?? 0;
  return [...(first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80]), ...parts].join(".");
}

/** UTCTime (YYMMDDHHMMSSZ, years 1950-2049) or GeneralizedTime (YYYYMMDDHHMMSSZ), as RFC 5280 §4.1.2.5 allows. */
export function time(item: Der | undefined): Date {
  if (item?.tagClass !== 0 || (item.tag !== UNIVERSAL.UTC_TIME && item.tag !== UNIVERSAL.GENERALIZED_TIME))
    throw new Error("DER: expected a time");
  // ignoreBOM: a leading byte order mark stays in the text (and fails the match) instead of being dropped.
  const text = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(item.contents);
  const match = (
    item.tag === UNIVERSAL.UTC_TIME ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/ : /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/
  ).exec(text);
  if (!match) throw new Error("DER: time is not in the form RFC 5280 requires");
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  const year = item.tag === UNIVERSAL.UTC_TIME ? (y! < 50 ? 2000 + y! : 1900 + y!) : y!;
  // setUTCFullYear, not Date.UTC, which reads the years 0 to 99 as 1900 to 1999; a field Date would roll
  // over (30 February, month 13, 24:00) is refused, not read as the next day, month or year.
  const date = new Date(0);
  date.setUTCFullYear(year, mo! - 1, d!);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== mo! - 1 || date.getUTCDate() !== d! || h! > 23 || mi! > 59 || s! > 59)
    throw new Error("DER: time is not a date and time the calendar has");
  date.setUTCHours(h!, mi!, s!, 0);
  return date;
}
