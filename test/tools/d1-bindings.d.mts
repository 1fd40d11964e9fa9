// Types of d1-bindings.mjs for the files type-checked outside test/tools (the node tests).
export function d1Bindings(toml: string, env?: string): string[];
