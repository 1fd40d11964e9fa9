// Opaque, prefixed, unguessable ids (docs/api-contract.md §Conventions): 18 random bytes = 144 bits, base64url.
import { randomBytes } from "./crypto";
import { toBase64Url } from "./encoding";
import { newTaggedValue } from "./shard-tag";

export type IdPrefix = "usr" | "key" | "ses" | "rcpt" | "msg" | "app" | "psk";

export const newId = (prefix: IdPrefix): string => `${prefix}_${toBase64Url(randomBytes(18))}`;

/** The shape every id of that prefix has: the prefix, then 18 bytes in base64url (24 characters). */
export const idShape = (prefix: IdPrefix): RegExp => new RegExp(`^${prefix}_[A-Za-z0-9_-]{24}$`);

/** Whether `value` has the shape of an id of that prefix; anything else is answered like an unknown id (404). */
export const isIdOf = (prefix: IdPrefix, value: string): boolean => idShape(prefix).test(value);

/** A random secret token, base64url, for nonces and email links. */
export const newToken = (bytes = 32): string => toBase64Url(randomBytes(bytes));

/** An id that names the D1 shard its record lives on (src/lib/shard-tag.ts): same shape as newId's. */
export const newTaggedId = async (prefix: IdPrefix, shard: number): Promise<string> => `${prefix}_${await newTaggedValue(18, shard)}`;
