// Typed reading of decoded CBOR: each accessor either returns the shape a structure requires or throws
// DIGITAL_ID_INVALID naming the field, so the verifiers read like the CDDL they follow.
import { decodeCbor, Tagged, type Cbor } from "./cbor";
import { invalid } from "./failures";

export type CborMap = Map<string | number, Cbor>;

export function parse(bytes: Uint8Array, what: string): Cbor {
  try {
    return decodeCbor(bytes);
  } catch {
    throw invalid(`the ${what} is not well-formed CBOR.`);
  }
}

export function asMap(value: Cbor | undefined, what: string): CborMap {
  if (!(value instanceof Map)) throw invalid(`${what} is not a map.`);
  return value;
}

export function asArray(value: Cbor | undefined, what: string): Cbor[] {
  if (!Array.isArray(value)) throw invalid(`${what} is not an array.`);
  return value;
}

export function asText(value: Cbor | undefined, what: string): string {
  if (typeof value !== "string") throw invalid(`${what} is not text.`);
  return value;
}

export function asBytes(value: Cbor | undefined, what: string): Uint8Array<ArrayBuffer> {
  if (!(value instanceof Uint8Array)) throw invalid(`${what} is not a byte string.`);
  return value as Uint8Array<ArrayBuffer>;
}

export function asInteger(value: Cbor | undefined, what: string): number {
  if (typeof value !== "number" || !Number.isInteger(value)) throw invalid(`${what} is not an integer.`);
  return value;
}

/** The bytes inside `#6.24(bstr)`, the embedded CBOR that mdocs sign and digest. */
export function embeddedBytes(value: Cbor | undefined, what: string): Uint8Array<ArrayBuffer> {
  if (!(value instanceof Tagged) || value.tag !== 24) throw invalid(`${what} is not embedded CBOR (tag 24).`);
  return asBytes(value.value, what);
}

/**
 * Date rolls 30 February into March and 24:00 into the next day; RFC 3339 has neither. The month's length
 * comes from setUTCFullYear, not Date.UTC, which reads the years 0 to 99 as 1900 to 1999 (1900 has no
 * 29 February; the year 0000 has one).
 */
function onTheCalendar(year: number, month: number, day: number, hour: number): boolean {
  const lastDay = new Date(0);
  lastDay.setUTCFullYear(year, month, 0);
  return hour <= 23 && day <= lastDay.getUTCDate();
}

/** `tdate` (tag 0, RFC 3339 text), as mdoc validity fields carry it. */
export function asDate(value: Cbor | undefined, what: string): Date {
  if (!(value instanceof Tagged) || value.tag !== 0 || typeof value.value !== "string")
    throw invalid(`${what} is not a date-time (tag 0).`);
  const date = new Date(value.value);
  const fields = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.exec(value.value);
  if (!fields || Number.isNaN(date.getTime()) || !onTheCalendar(Number(fields[1]), Number(fields[2]), Number(fields[3]), Number(fields[4])))
    throw invalid(`${what} is not a valid date-time.`);
  return date;
}
