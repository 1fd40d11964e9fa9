// The D1 bindings an environment of wrangler.toml declares, read from the file's two shapes: the
// top-level [[d1_databases]] tables (development) and an [env.<name>] section's inline
// `d1_databases = [ { binding = "…", … }, … ]`. No TOML parser in the dependencies, and only these two
// shapes are written in this repository (test/node/d1-bindings.test.ts reads wrangler.toml with it).
// Plain JavaScript (type-checked by test/tools): the migration command and the test servers
// (dev-server.mjs, used by the bench and the browser tests) both migrate every shard with it.

/**
 * The section's text: everything from its header to the next header of another section.
 * @param {string} toml
 * @param {string | undefined} env
 * @returns {string}
 */
function sectionOf(toml, env) {
  const lines = toml.split("\n");
  const isEnvHeader = (/** @type {string} */ line) => /^\[env\.[^\]]+\]\s*$/.test(line.trim());
  if (env === undefined) {
    const end = lines.findIndex(isEnvHeader);
    return lines.slice(0, end === -1 ? lines.length : end).join("\n");
  }
  const start = lines.findIndex((line) => line.trim() === `[env.${env}]`);
  if (start === -1) throw new Error(`wrangler.toml has no [env.${env}] section`);
  const next = lines.findIndex((line, i) => i > start && isEnvHeader(line));
  return lines.slice(start + 1, next === -1 ? lines.length : next).join("\n");
}

/**
 * @param {string} toml
 * @param {string} [env]
 * @returns {string[]}
 */
export function d1Bindings(toml, env) {
  const section = sectionOf(toml, env);
  if (env === undefined) {
    // Each [[d1_databases]] table up to the next table header.
    return [...section.matchAll(/^\[\[d1_databases\]\]\s*\n((?:(?!\[).*\n?)*)/gm)].map((table) => {
      const binding = /^binding\s*=\s*"([^"]+)"/m.exec(/** @type {string} */ (table[1]));
      if (!binding) throw new Error("a [[d1_databases]] table without a binding");
      return /** @type {string} */ (binding[1]);
    });
  }
  const list = /^d1_databases\s*=\s*\[([\s\S]*?)^\]/m.exec(section);
  if (!list) throw new Error(`[env.${env}] declares no d1_databases`);
  return [.../** @type {string} */ (list[1]).matchAll(/binding\s*=\s*"([^"]+)"/g)].map((match) => /** @type {string} */ (match[1]));
}
