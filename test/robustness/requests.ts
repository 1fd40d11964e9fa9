// Generated requests: how a case becomes an HTTP request, credentials per security scheme, and a
// snapshot of every D1 table to prove that a refused request wrote nothing.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../src/index";
import { onfidoSignatureOf } from "../helpers/kyc";
import { BASE } from "../helpers/http";
import type { Operation, Response } from "./openapi-walk";
import { shardBindings } from "../helpers/shards";

export type RawBody = { raw: BodyInit; contentType?: string };

export type Case = {
  /** Path parameter values, unencoded. */
  params?: Record<string, string>;
  query?: Record<string, string | string[]>;
  /** A JSON value to send as application/json, or raw bytes with a content type of the case's choosing. */
  body?: { json: unknown } | RawBody;
  headers?: Record<string, string>;
};

export type Credentials = { token?: string; apiKey?: string };

let address = 0;
/** A fresh client address per request, so the per-address rate limits never answer for the validator. */
const freshAddress = () => `203.0.113.${(++address % 250) + 1}-${Date.now()}-${address}`;

export function buildUrl(op: Operation, c: Case) {
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(c.params?.[name] ?? ""));
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(c.query ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) search.append(key, v);
  }
  const qs = search.toString();
  return `${BASE}${path}${qs ? `?${qs}` : ""}`;
}

export async function send(op: Operation, c: Case, credentials: Credentials): Promise<Response> {
  const headers: Record<string, string> = { "cf-connecting-ip": freshAddress(), ...c.headers };
  if (op.security === "bearer" && credentials.token) headers.authorization = `Bearer ${credentials.token}`;
  if (op.security === "apiKey" && credentials.apiKey) headers["x-api-key"] = credentials.apiKey;
  let body: BodyInit | undefined;
  if (c.body && "json" in c.body) {
    body = JSON.stringify(c.body.json);
    headers["content-type"] ??= "application/json";
  } else if (c.body) {
    body = c.body.raw;
    if (c.body.contentType !== undefined) headers["content-type"] = c.body.contentType;
  }
  // The provider webhook is signed over the raw body, so a case reaches its parser and validator.
  if (op.security === "webhookSignature" && typeof body === "string") {
    headers["x-sha2-signature"] ??= await onfidoSignatureOf(body);
  }
  const response = await dispatch(new Request(buildUrl(op, c), { method: op.method, headers, body }));
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, body: json, text };
}

/**
 * The Worker's own fetch handler with the real bindings (D1, Durable Objects, queue). Not SELF.fetch: in this
 * pool every SELF round trip gets slower the more a file has made (thousands here), the direct call does not.
 * Work the request left to waitUntil is awaited, so that a snapshot taken afterwards sees it.
 */
export async function dispatch(request: Request): Promise<globalThis.Response> {
  const ctx = createExecutionContext();
  const response = await (worker as ExportedHandler<Env>).fetch!(request as Request<unknown, IncomingRequestCfProperties>, env, ctx);
  const bytes = await response.arrayBuffer();
  await waitOnExecutionContext(ctx);
  const nullBody = [101, 204, 205, 304].includes(response.status);
  return new globalThis.Response(nullBody ? null : bytes, { status: response.status, headers: response.headers });
}

/** A JSON request through `dispatch`, for fixtures (the suites' own cases go through `send`). */
export async function request(
  method: string,
  path: string,
  options: { token?: string; apiKey?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.apiKey) headers["x-api-key"] = options.apiKey;
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const response = await dispatch(new Request(`${BASE}${path}`, { method, headers, body }));
  const text = await response.text();
  if (response.status >= 300) throw new Error(`fixture ${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return { status: response.status, body: JSON.parse(text) as { data: any } };
}

/** Written only by the API key middleware after the response, at most once a minute: not a change the request made. */
const IGNORED_COLUMNS = new Set(["last_used_at"]);
// The per-account limit counters (docs/limits.md) count every attempt on purpose, refused ones included,
// so that hammering a limited route past its limit does not shorten the wait: a counted attempt is not a
// write of the request's own.
const IGNORED_TABLES = new Set(["account_counters"]);

let tableNames: string[] | undefined;

/** A WITHOUT ROWID table has no rowid to order by: its primary key orders it. */
const ORDER_BY: Partial<Record<string, string>> = { usage_days: "account_id, livemode, day, key_id", passkey_challenges: "challenge_hash" };

/** Every row of every application table on every D1 shard, as text: equal snapshots mean the request wrote nothing. */
export async function snapshot(): Promise<string> {
  return JSON.stringify(await Promise.all(shardBindings().map((d1) => shardSnapshot(d1))));
}

async function shardSnapshot(d1: D1Database): Promise<string> {
  tableNames ??= (
    await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%' ORDER BY name",
    ).all<{ name: string }>()
  ).results
    .map((r) => r.name)
    .filter((name) => !IGNORED_TABLES.has(name));
  const results = await d1.batch(tableNames.map((name) => d1.prepare(`SELECT * FROM "${name}" ORDER BY ${ORDER_BY[name] ?? "rowid"}`)));
  return JSON.stringify(
    results.map((r, i) => [
      tableNames![i],
      (r.results as Record<string, unknown>[]).map((row) => Object.entries(row).filter(([column]) => !IGNORED_COLUMNS.has(column))),
    ]),
  );
}

/** Row counts per table, for a readable failure message. */
export async function rowCounts(): Promise<Record<string, number>> {
  const parsed = JSON.parse(await snapshot()) as [string, unknown[]][];
  return Object.fromEntries(parsed.map(([name, rows]) => [name, rows.length]));
}
