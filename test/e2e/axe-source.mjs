// The axe-core script (a dev dependency), read on the Node side to be evaluated inside a page.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

export const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
