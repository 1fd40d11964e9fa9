// Success envelopes (docs/api-contract.md §Conventions): { success: true, data?, message? }.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

export const ok = <T>(c: Context, data: T, status: ContentfulStatusCode = 200) => c.json({ success: true as const, data }, status);

export const accepted = (c: Context, message: string) => c.json({ success: true as const, message }, 202);
