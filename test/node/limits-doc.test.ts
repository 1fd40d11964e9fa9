/// <reference types="vite/client" />
// The limits catalogue (src/http/limits.ts) is the one vocabulary for limits: docs/limits.md lists each
// of its limits with the routes that declare it, wrangler.toml gives each binding the catalogue's numbers
// in every environment, and a route names a limit only in its spec (its handler counts `spec.limits.…`).
import { describe, expect, it } from "vitest";
import limitsMd from "../../docs/limits.md?raw";
import wranglerToml from "../../wrangler.toml?raw";
import { createApp } from "../../src/app";
import { ACCOUNT_LIMITS } from "../../src/domain/limits";
import { collectOperations } from "../../src/http/openapi-document";
import { aboutLimit, isBindingLimit, LIMITS, type Limit } from "../../src/http/limits";
import { readMeta } from "../../src/http/openapi-meta";

const routeSources = import.meta.glob<string>("../../src/routes/**/*.{ts,tsx}", { query: "?raw", import: "default", eager: true });

const catalogue: Limit[] = Object.values(LIMITS);

/**
 * The routes that declare each limit, as the OpenAPI document names them: `POST /api/auth/login`; then
 * those outside /api that carry metadata for their limits alone (the OpenID4VCI endpoints: `POST /token`).
 */
function routesByLimit(): Map<string, string[]> {
  const routes = new Map<string, string[]>();
  const add = (method: string, path: string, limits: readonly string[] = []) => {
    for (const name of limits)
      routes.set(name, [...(routes.get(name) ?? []), `${method.toUpperCase()} ${path.replace(/:(\w+)/g, "{$1}")}`]);
  };
  for (const { method, path, meta } of collectOperations(createApp())) add(method, path, meta.limits);
  for (const route of createApp().routes)
    if (!route.path.startsWith("/api/")) add(route.method, route.path, readMeta(route.handler)?.limits);
  return routes;
}

/** The row docs/limits.md must hold for a limit. */
function expectedRow(limit: Limit, routes: string[]): string {
  const about = aboutLimit(limit);
  const countedIn = isBindingLimit(limit)
    ? `\`${limit.binding}\``
    : `D1: ${ACCOUNT_LIMITS[limit.accountWindows].map((window) => `\`${window.setting}\``).join(", ")}`;
  const routeList = routes.map((route) => `\`${route}\``).join(", ");
  return `| \`${limit.name}\` | ${routeList} | ${about.counts} | ${about.keyedBy} | ${countedIn} | ${about.production} | ${about.why} |`;
}

/** The Rate Limiting bindings of each environment of wrangler.toml: the [[ratelimits]] blocks and the inline tables. */
function wranglerBindings(): Record<
  "development" | "production" | "staging",
  { name: string; namespace: string; limit: number; period: number }[]
> {
  const production = wranglerToml.indexOf("\n[env.production]");
  const staging = wranglerToml.indexOf("\n[env.staging]");
  const parse = (text: string) =>
    [...text.matchAll(/name = "(\w+_LIMITER)",?\s*namespace_id = "(\d+)",?\s*simple = \{ limit = (\d+), period = (\d+) \}/g)].map((m) => ({
      name: m[1]!,
      namespace: m[2]!,
      limit: Number(m[3]),
      period: Number(m[4]),
    }));
  return {
    development: parse(wranglerToml.slice(0, Math.min(production, staging))),
    production: parse(wranglerToml.slice(production, staging > production ? staging : undefined)),
    staging: parse(wranglerToml.slice(staging, production > staging ? production : undefined)),
  };
}

/** Where a route's `const spec = {…}` starts and ends (its braces balanced), or an empty span when it has none. */
function specSpan(text: string): { start: number; end: number } {
  const start = text.search(/^(?:export )?const spec = \{/m);
  if (start < 0) return { start: 0, end: 0 };
  let depth = 0;
  for (let i = text.indexOf("{", start); i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return { start, end: i + 1 };
  }
  return { start, end: text.length };
}

const lineAt = (text: string, index: number) => text.slice(0, index).split("\n").length;

describe("the limits catalogue", () => {
  it("is declared by the routes that count it, each limit by at least one", () => {
    const routes = routesByLimit();
    expect(routes.get("loginPerAddress")).toEqual(["POST /api/auth/login", "POST /authorize"]);
    for (const limit of catalogue) expect(routes.get(limit.name), limit.name).toBeDefined();
  });

  it("is listed in docs/limits.md, one row per limit with its routes, what it counts, its key, where it is counted, its numbers and why", () => {
    const routes = routesByLimit();
    const rows = limitsMd.split("\n").filter((line) => /^\| `\w+` \|/.test(line));
    expect(rows).toEqual(catalogue.map((limit) => expectedRow(limit, routes.get(limit.name) ?? [])));
  });

  it("gives each binding the catalogue's numbers over 60 seconds, in every environment, each binding its own namespace", () => {
    const bindings = wranglerBindings();
    const used = new Set(catalogue.filter(isBindingLimit).map((limit) => limit.binding));
    for (const [environment, declared] of Object.entries(bindings)) {
      expect(declared.map((b) => b.name).sort(), environment).toEqual([...used].sort());
      expect(new Set(declared.map((b) => b.namespace)).size, environment).toBe(declared.length);
      for (const limit of catalogue.filter(isBindingLimit)) {
        const binding = declared.find((b) => b.name === limit.binding)!;
        expect({ limit: binding.limit, period: binding.period }, `${environment} ${limit.name}`).toEqual({
          limit: aboutLimit(limit).perMinute,
          period: 60,
        });
      }
    }
    // Staging counts apart from production.
    const ids = (environment: "production" | "staging") => new Set(bindings[environment].map((b) => b.namespace));
    expect([...ids("production")].filter((id) => ids("staging").has(id))).toEqual([]);
  });

  it("gives a limit one name in code: an account limit's D1 windows are keyed by its catalogue name", () => {
    const accountLimits = catalogue.filter((limit) => !isBindingLimit(limit));
    expect(accountLimits.map((limit) => (isBindingLimit(limit) ? null : limit.accountWindows))).toEqual(
      accountLimits.map((limit) => limit.name),
    );
    expect(Object.keys(ACCOUNT_LIMITS).sort()).toEqual(accountLimits.map((limit) => limit.name).sort());
  });

  it("is named in a route's spec only: its handler counts `spec.limits.…`", () => {
    const misplaced: string[] = [];
    for (const [path, text] of Object.entries(routeSources)) {
      const spec = specSpan(text);
      for (const use of text.matchAll(/LIMITS\./g)) {
        if (use.index < spec.start || use.index >= spec.end) misplaced.push(`${path}:${lineAt(text, use.index)}`);
      }
      // The formatter may break a call over lines: whitespace between its parts is any.
      for (const call of text.matchAll(/\b(?:countUse\(\s*c,\s*|limitPerAddress\(\s*|loadAnswerer\([^,]+,\s*[^,]+,\s*)([^,)\s]+)/g)) {
        if (!call[1]!.startsWith("spec.limits.")) misplaced.push(`${path}:${lineAt(text, call.index)}: ${call[0]}`);
      }
    }
    expect(misplaced).toEqual([]);
    // The check reads the calls it guards.
    expect(Object.values(routeSources).join("\n")).toMatch(/countUse\(c, spec\.limits\.perAddress, address\)/);
  });
});
