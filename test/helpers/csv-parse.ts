// A strict RFC 4180 reader for tests: it fails on anything the writer should never produce.
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < text.length) {
    let cell = "";
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error("unterminated quoted cell");
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        cell += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== "," && text[i] !== "\r" && text[i] !== "\n") {
        if (text[i] === '"') throw new Error(`bare quote at ${i}`);
        cell += text[i++];
      }
    }
    row.push(cell);
    if (text[i] === ",") {
      i++;
      continue;
    }
    if (text.startsWith("\r\n", i)) {
      rows.push(row);
      row = [];
      i += 2;
      continue;
    }
    if (i < text.length) throw new Error(`unexpected character at ${i}`);
  }
  if (row.length > 0) throw new Error("last line has no CRLF");
  return rows;
}
