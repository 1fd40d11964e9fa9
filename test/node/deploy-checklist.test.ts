/// <reference types="vite/client" />
// docs/deploy.md is the operator's checklist: it must name every binding, queue, database and var in
// wrangler.toml (every environment) and every setting the code reads, or a deploy from the docs alone
// misses one. The committed development secrets must also be the ones production refuses.
import { describe, expect, it } from "vitest";
import { DEVELOPMENT_VALUES } from "../../src/config/problems";
import deployMd from "../../docs/deploy.md?raw";
import optionalSettings from "../../src/config/optional-settings.d.ts?raw";
import wranglerToml from "../../wrangler.toml?raw";

const sources = import.meta.glob(["../../src/**/*.ts", "../../src/**/*.tsx", "!../../src/worker-configuration.d.ts"], {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

const all = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m[1]!);

/** The [vars] table of the development configuration, and the inline `vars = { … }` of each environment. */
function varNames(): string[] {
  const topLevel = /\n\[vars\]\n([\s\S]*?)\n\[/.exec(wranglerToml)![1]!;
  const inline = all(wranglerToml, /\nvars = \{([^}]*)\}/g).join(",");
  return [...all(topLevel, /^([A-Z][A-Z0-9_]+)\s*=/gm), ...all(inline, /([A-Z][A-Z0-9_]+)\s*=/g)];
}

function wranglerNames(): string[] {
  return [
    ...all(wranglerToml, /\bbinding\s*=\s*"([^"]+)"/g),
    ...all(wranglerToml, /\bname\s*=\s*"([A-Z][A-Z0-9_]+)"/g),
    ...all(wranglerToml, /\bclass_name\s*=\s*"([^"]+)"/g),
    ...all(wranglerToml, /\b(?:dead_letter_)?queue\s*=\s*"([^"]+)"/g),
    ...all(wranglerToml, /\bdatabase_name\s*=\s*"([^"]+)"/g),
    ...varNames(),
  ];
}

function settingsTheCodeReads(): string[] {
  const code = Object.values(sources).join("\n");
  return [
    ...all(code, /\benv\.([A-Z][A-Z0-9_]+)\b/g),
    ...all(code, /\bsecret\([^,()]+,\s*"([A-Z][A-Z0-9_]+)"\)/g),
    ...all(code, /\btext\(env,\s*"([A-Z][A-Z0-9_]+)"\)/g),
    ...all(optionalSettings, /^\s*([A-Z][A-Z0-9_]+)\?:/gm),
  ];
}

const missingFromChecklist = (names: string[]) => [...new Set(names)].filter((name) => !deployMd.includes(`\`${name}\``)).sort();

describe("docs/deploy.md", () => {
  it("reads the configuration it checks (the parsers find what is there)", () => {
    expect(wranglerNames()).toEqual(
      expect.arrayContaining([
        "DB",
        "SESSIONS",
        "CALLBACKS",
        "MAIL",
        "MAILER",
        "LOGIN_PER_EMAIL_AND_ADDRESS_LIMITER",
        "callbacks-dead-letter",
        "staging-mail",
        "APP_URL",
      ]),
    );
    expect(settingsTheCodeReads()).toEqual(expect.arrayContaining(["JWT_SECRET", "SECRETS_KEY_PREVIOUS", "MAIL_FROM", "DB"]));
  });

  it("names every binding, queue, database and var in wrangler.toml", () => {
    expect(missingFromChecklist(wranglerNames())).toEqual([]);
  });

  it("names every secret and var the code reads", () => {
    expect(missingFromChecklist(settingsTheCodeReads())).toEqual([]);
  });

  it("covers the Cron Trigger, migrations before deploy, the health check and rollback", () => {
    expect(wranglerToml).toMatch(/crons\s*=/);
    for (const phrase of ["crons", "db:migrate -- --remote --env production", "/api/health", "time-travel", "--env staging"]) {
      expect(deployMd).toContain(phrase);
    }
  });
});

describe("committed development secrets", () => {
  it("the platform's invocation logs (full URLs, query strings included) are off, in every environment", () => {
    expect(wranglerToml).toMatch(/\n\[observability\.logs\]\nenabled = true\ninvocation_logs = false\n/);
    // Environments inherit [observability] unless they declare their own, which would have to say the same.
    expect(wranglerToml).not.toMatch(/^\s*observability\s*=/m);
  });

  it("every secret committed in wrangler.toml [vars] is one production refuses", () => {
    const topLevel = /\n\[vars\]\n([\s\S]*?)\n\[/.exec(wranglerToml)![1]!;
    const committed = [
      "JWT_SECRET",
      "PASSWORD_PEPPER",
      "SECRETS_KEY",
      "IDENTITY_FINGERPRINT_KEY",
      "ONFIDO_API_TOKEN",
      "ONFIDO_WEBHOOK_TOKEN",
      "RECEIPT_SIGNING_KEY",
    ].map((name) => {
      // A basic string ("…") or, for the JSON of the receipt key, a literal string ('…').
      const match = new RegExp(`^${name}\\s*=\\s*(?:"([^"]+)"|'([^']+)')`, "m").exec(topLevel);
      return match?.[1] ?? match?.[2];
    });
    expect(committed.every((value) => value !== undefined)).toBe(true);
    expect([...DEVELOPMENT_VALUES].sort()).toEqual([...committed].sort());
  });
});
