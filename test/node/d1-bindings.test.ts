/// <reference types="vite/client" />
// The migration command reads the D1 bindings of each wrangler.toml environment (test/tools/d1-bindings.ts):
// every environment binds the shards its D1_SHARDS names, DB then DB_1, …, and the command finds them all.
import { describe, expect, it } from "vitest";
import { d1Bindings } from "../tools/d1-bindings.mjs";
import toml from "../../wrangler.toml?raw";

describe("D1 bindings of wrangler.toml", () => {
  it("development binds two shards, DB and DB_1, and says D1_SHARDS = 2", () => {
    expect(d1Bindings(toml)).toEqual(["DB", "DB_1"]);
    expect(toml).toMatch(/^D1_SHARDS = "2"$/m);
  });

  for (const env of ["production", "staging"]) {
    it(`${env} binds as many shards as its D1_SHARDS, in order`, () => {
      const bindings = d1Bindings(toml, env);
      const section = toml.slice(toml.indexOf(`[env.${env}]`));
      const shards = Number(/D1_SHARDS = "(\d+)"/.exec(section)?.[1]);
      expect(bindings).toEqual(Array.from({ length: shards }, (_, i) => (i === 0 ? "DB" : `DB_${i}`)));
    });
  }

  it("reads both shapes, and refuses an environment that does not exist", () => {
    const sample =
      '[[d1_databases]]\nbinding = "DB"\nx = 1\n\n[[d1_databases]]\nbinding = "DB_1"\n\n[env.p]\nd1_databases = [\n  { binding = "DB" },\n  { binding = "DB_1" },\n  { binding = "DB_2" },\n]\n';
    expect(d1Bindings(sample)).toEqual(["DB", "DB_1"]);
    expect(d1Bindings(sample, "p")).toEqual(["DB", "DB_1", "DB_2"]);
    expect(() => d1Bindings(sample, "q")).toThrow(/no \[env.q\]/);
  });
});
