// Opaque keyset cursors for the session log. A cursor carries the last row's (created_at, id) and the
// window resolved on the first page (so a default `to` = now stays fixed while a client pages), and is
// signed with a key derived from JWT_SECRET over the account and the filters: a cursor that was edited,
// comes from another account or is replayed with other filters is refused with 422.
import * as z from "../../lib/lazy-zod";
import { validationFailed } from "../../errors";
import { hmacSha256, timingSafeEqual } from "../../lib/crypto";
import { fromBase64Url, fromUtf8, toBase64Url, utf8 } from "../../lib/encoding";
import type { Range } from "./range";

export type LogPosition = { createdAt: string; id: string };

/** What a cursor is bound to: it only works for the same account asking with the same filters. */
export type CursorBinding = {
  accountId: string;
  status?: string;
  keyId?: string;
  /** Added in 1.2.0: bound only when asked, so a cursor of a query without it keeps its signature. */
  mode?: string;
  /** The raw from/to query values, so that a cursor cannot be replayed against another window. */
  from?: string;
  to?: string;
};

const Payload = z.object({
  v: z.literal(1),
  c: z.iso.datetime(),
  i: z.string().check(z.maxLength(64)),
  f: z.iso.datetime(),
  t: z.iso.datetime(),
});

const CURSOR_KEY_LABEL = "usage-cursor/v1";

async function signature(jwtSecret: string, binding: CursorBinding, payload: string): Promise<string> {
  // A separate key per purpose: a cursor MAC can never be confused with a JWT signature.
  const key = await hmacSha256(utf8(jwtSecret), CURSOR_KEY_LABEL);
  const mode = binding.mode ? [binding.mode] : [];
  const bound = JSON.stringify([
    binding.accountId,
    binding.status ?? null,
    binding.keyId ?? null,
    binding.from ?? null,
    binding.to ?? null,
    ...mode,
    payload,
  ]);
  return toBase64Url(await hmacSha256(key, bound));
}

export async function encodeCursor(jwtSecret: string, binding: CursorBinding, position: LogPosition, range: Range): Promise<string> {
  const payload = toBase64Url(utf8(JSON.stringify({ v: 1, c: position.createdAt, i: position.id, f: range.from, t: range.to })));
  return `${payload}.${await signature(jwtSecret, binding, payload)}`;
}

const invalidCursor = () =>
  validationFailed([{ path: "cursor", message: "The cursor is not valid for this account and these filters; start again without it." }]);

export async function decodeCursor(
  jwtSecret: string,
  binding: CursorBinding,
  cursor: string,
): Promise<{ position: LogPosition; range: Range }> {
  const [payload, mac, extra] = cursor.split(".");
  if (!payload || !mac || extra !== undefined) throw invalidCursor();
  if (!timingSafeEqual(mac, await signature(jwtSecret, binding, payload))) throw invalidCursor();
  let parsed: ReturnType<typeof Payload.safeParse>;
  try {
    parsed = Payload.safeParse(JSON.parse(fromUtf8(fromBase64Url(payload))));
  } catch {
    throw invalidCursor();
  }
  if (!parsed.success) throw invalidCursor();
  const { c, i, f, t } = parsed.data;
  return { position: { createdAt: c, id: i }, range: { from: f, to: t } };
}
