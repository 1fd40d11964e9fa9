// The bench's arithmetic and printing, shared by bench.ts, startup.ts and by-dependency.ts.

/** The median of the finite values; NaN when there are none. */
export function median(xs: number[]): number {
  const sorted = [...xs].filter(Number.isFinite).sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length === 0 ? NaN : sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Rows as aligned columns: the first left-aligned, the others right-aligned. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ")).join("\n");
}

/**
 * The source module of each line of an unminified esbuild bundle (index = line number from 0), from the
 * `// path` comment esbuild writes where each module starts (indented inside a lazily evaluated module);
 * lines before the first marker are esbuild's own runtime helpers.
 */
export function modulesByLine(script: string): string[] {
  const owner: string[] = [];
  let current = "(esbuild runtime)";
  for (const line of script.split("\n")) {
    const marker = /^\s*\/\/ ((?:node_modules|src|\.\.|[a-z-]+:)[^\s]*\.(?:m?[jt]sx?))$/.exec(line);
    if (marker) current = marker[1]!;
    owner.push(current);
  }
  return owner;
}
