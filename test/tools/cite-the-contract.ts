// `npx tsx test/tools/cite-the-contract.ts [--dry-run] [paths…]`: rewrites the old citations (a section of
// a contract file kept outside the repository, an issue tracker's number) into citations of the
// repository's own documents: a section of docs/api-contract.md, or the guide that covers an issue's
// subject. Comment and doc text only: it touches nothing but the matched words. Run it over a merge that
// brings code written before the contract moved in; test/node/no-outside-references.test.ts then lists
// what the rules could not place (a narrative "since issue 35", say), to be reworded by hand.
// It is the one file that spells the old citations (the test leaves it out, by name).
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const CONTRACT_DOC = "docs/api-contract.md";

/** A keyword on the citing line picks the section a broad old section is split into, first match wins. */
type Section = { name: string; when?: RegExp };
const SECTIONS: Record<string, Section[]> = {
  "1": [{ name: "Conventions" }],
  "2": [{ name: "Auth" }],
  "3": [{ name: "Users" }],
  "4": [{ name: "Keys" }],
  "5": [
    { name: "Privacy", when: /link|reader|stor|identity|counter|no finer|privacy|join|visited|nothing about|log carries/i },
    { name: "Answering", when: /end user|request read|complete|consent/i },
    { name: "Sessions" },
  ],
  "6": [{ name: "Callbacks" }],
  "7": [{ name: "KYC" }],
  "8": [{ name: "Usage" }],
  "9": [{ name: "Health" }],
  "10": [{ name: "Development" }],
  "12": [
    { name: "Preview", when: /preview|first screen|first-screen/i },
    { name: "Idempotency", when: /idempot/i },
    { name: "Receipts", when: /receipt|jwks/i },
    { name: "Test mode", when: /test mode|test session|test key|test-outcome|outcomes a test/i },
    { name: "Callbacks", when: /rotation|signature|grace|redeliver|test event/i },
    { name: "Answering", when: /nonce|x-session-nonce|not now|decline|passkey/i },
    { name: "Keys", when: /\bmode\b|svc_sk|key/i },
    { name: "Sessions" },
  ],
  "13": [
    { name: "Limits", when: /hardening|per address|per client address|SESSION_OPENS|opens|limited|first passkey|password/i },
    {
      name: "Age tokens",
      when: /age.?token|privacy pass|tokenchallenge|token challenge|issuer directory|issuance|spent|anonymous|redeem|TokenRequest/i,
    },
    { name: "Digital ID", when: /digital.?id|wallet|credential|mdoc|age_over|anchor|iaca|sd-jwt/i },
    { name: "Idempotency", when: /idempot/i },
    { name: "Test mode", when: /test mode/i },
    { name: "Passkeys", when: /passkey/i },
    { name: "Session policy" },
  ],
  "14": [{ name: "Conventions" }],
};

/** The guide that covers the subject of each past issue, for a comment that cited the issue's number. */
type Guide = { doc: string; when?: RegExp };
const ISSUE_GUIDES: Record<string, Guide[]> = {
  "11": [{ doc: "docs/end-user-apps.md" }],
  "12": [{ doc: "docs/end-user-apps.md" }],
  "13": [{ doc: "docs/performance.md" }],
  "17": [{ doc: "docs/security-privacy.md", when: /no-store|cache|nonce|header/i }, { doc: "docs/limits.md" }],
  "18": [{ doc: "docs/integrating.md" }],
  "19": [{ doc: "docs/callbacks.md" }],
  "21": [{ doc: "docs/performance.md" }],
  "24": [{ doc: "docs/end-user-apps.md" }],
  "29": [{ doc: "docs/design.md" }],
  "30": [
    { doc: "docs/limits.md", when: /limit|count|counter|cap\b|opens|flood|per minute|a day|bounded/i },
    { doc: "docs/security-privacy.md" },
  ],
  "31": [{ doc: "docs/digital-id.md" }],
  "32": [{ doc: "docs/double-blind.md" }],
  "33": [{ doc: "docs/end-user-apps.md" }],
  "34": [{ doc: "docs/drop-in.md" }],
  "35": [{ doc: "docs/performance.md" }],
  "36": [{ doc: "docs/operations.md", when: /shard/i }, { doc: "docs/capacity.md" }],
  "37": [{ doc: "docs/design.md" }],
};

const pick = <T extends { when?: RegExp }>(choices: T[], line: string): T =>
  choices.find((choice) => !choice.when || choice.when.test(line)) ?? choices[choices.length - 1]!;

const CONTRACT = "CONTRACT";
/** `CONTRACT §12, §13`, `CONTRACT §2-3`, `CONTRACT §13 "Ways to prove an age"`, `CONTRACT §13, "Hardening"`. */
const CONTRACT_CITATION = new RegExp(
  `${CONTRACT} §(\\d+)((?:(?:, ?| and |-)§?\\d+)*)(?:,? ?(?:"|\\u201c)([^"\\u201d]+)(?:"|\\u201d))?`,
  "g",
);
/** `issue 30`, `Issue 33, item 2`, `issue 30, items 3 and 7`, `issue 36, item 1`, `issue 33 item 1`, `issue 21's`. */
const ISSUE_CITATION = /\b([Ii])ssue (\d+)(?:'s)?(?:,? items? \d+(?:(?:,| and) \d+)*)?/g;

/** The section a quoted old heading names, when it names one directly. */
const QUOTED: Record<string, string> = {
  "Ways to prove an age": "Session policy",
  Hardening: "Limits",
  preview: "Preview",
  "Anonymous age tokens": "Age tokens",
};

export function rewriteLine(line: string): string {
  const contract = line.replace(CONTRACT_CITATION, (_all, first: string, more: string, quoted: string | undefined) => {
    if (quoted && QUOTED[quoted]) return `${CONTRACT_DOC} §${QUOTED[quoted]}`;
    const numbers = [first];
    const range = /^-(\d+)$/.exec(more);
    if (range) for (let n = Number(first) + 1; n <= Number(range[1]); n++) numbers.push(String(n));
    else numbers.push(...[...more.matchAll(/\d+/g)].map((m) => m[0]));
    const names = [...new Set(numbers.map((n) => pick(SECTIONS[n] ?? [{ name: "Conventions" }], line).name))];
    return `${CONTRACT_DOC} ${names.map((name) => `§${name}`).join(", ")}`;
  });
  return contract.replace(
    ISSUE_CITATION,
    (_all, _i: string, number: string) => pick(ISSUE_GUIDES[number] ?? [{ doc: "docs/design.md" }], line).doc,
  );
}

/** A citation that repeats itself once rewritten (`docs/x.md, docs/x.md`) says it once. */
export function tidy(line: string): string {
  return line.replace(/(docs\/[\w.-]+\.md(?: §[\w -]+)?)((?:[,;] ?| and )\1)+/g, "$1").replace(/\((docs\/[\w.-]+\.md)(; |, )\1\b/g, "($1");
}

/** This tool and the test that names every old form it looks for: neither is a citation. */
const SELF = new Set(["test/tools/cite-the-contract.ts", "test/node/no-outside-references.test.ts"]);

function trackedFiles(paths: string[]): string[] {
  const listed = spawnSync(
    "git",
    [
      "ls-files",
      "-co",
      "--exclude-standard",
      "--",
      ...(paths.length ? paths : ["src", "test", "docs", "packages", "drizzle", ".ci", "README.md", "CHANGELOG.md", "wrangler.toml"]),
    ],
    { encoding: "utf8", maxBuffer: 64 << 20 },
  );
  if (listed.status !== 0) throw new Error(listed.stderr);
  return listed.stdout
    .split("\n")
    .filter((file) => file && /\.(ts|tsx|js|mjs|md|sql|css|toml|json|py|sh)$/.test(file) && !SELF.has(file) && !file.startsWith("public/"));
}

function main(): void {
  const args = process.argv.slice(2);
  const dryRun = args.includes("--dry-run");
  let changed = 0;
  for (const file of trackedFiles(args.filter((arg) => arg !== "--dry-run"))) {
    const before = readFileSync(file, "utf8");
    const after = before
      .split("\n")
      .map((line) => {
        const rewritten = rewriteLine(line);
        return rewritten === line ? line : tidy(rewritten);
      })
      .join("\n");
    if (after === before) continue;
    changed++;
    if (dryRun) process.stdout.write(`${file}\n`);
    else writeFileSync(file, after);
  }
  process.stdout.write(`${dryRun ? "would rewrite" : "rewrote"} ${changed} files\n`);
}

if (process.argv[1]?.endsWith("cite-the-contract.ts")) main();
