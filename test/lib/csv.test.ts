import { describe, expect, it } from "vitest";
import { csvCell, csvRow } from "../../src/lib/csv";
import { parseCsv } from "../helpers/csv-parse";

describe("csv writer", () => {
  describe("happy", () => {
    it("writes plain values as they are and null as an empty cell", () => {
      expect(csvRow(["a", 1, true, null, undefined])).toBe("a,1,true,,\r\n");
    });

    it("quotes a cell with a comma, a quote or a line break, doubling inner quotes", () => {
      expect(csvCell("a,b")).toBe('"a,b"');
      expect(csvCell('say "hi"')).toBe('"say ""hi"""');
      expect(csvCell("two\nlines")).toBe('"two\nlines"');
      expect(csvCell("cr\rlf")).toBe('"cr\rlf"');
    });

    it("parses back to the same values", () => {
      const rows = [["x", 'q"uote', "com,ma", "line\r\nbreak", ""]];
      expect(parseCsv(rows.map(csvRow).join(""))).toEqual(rows);
    });
  });

  describe("security", () => {
    it.each(["=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1"])("prefixes text that starts like a formula (%j) with '", (value) => {
      const cell = csvCell(value);
      expect(parseCsv(csvRow([value]))[0]![0]).toBe(`'${value}`);
      expect(cell.replace(/^"/, "").startsWith("'")).toBe(true);
    });

    it("quotes a formula-looking cell that also holds a comma and a quote", () => {
      expect(csvCell('=HYPERLINK("x",1)')).toBe(`"'=HYPERLINK(""x"",1)"`);
    });

    it("leaves numbers alone, even negative ones", () => {
      expect(csvCell(-1)).toBe("-1");
    });
  });
});
