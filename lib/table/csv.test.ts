import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { toCsv } from "./csv";

// RFC 4180: fields with commas, quotes or line breaks are quoted, their quotes doubled; records end
// with CRLF. Python's csv module (what pandas and most scripts read with) must read back the same fields.

const tricky = [
  ["plain", "with, comma", 'say "hi"', "two\nlines", "cr\r\nlf", "", null, 0.125, -3, true],
  ["ünïcödé", " lead and trail ", '"', ",", "x"],
];

describe("toCsv", () => {
  it("quotes only what needs it and ends records with CRLF", () => {
    expect(toCsv([["a", "b,c", 'd"e', "f\ng", null, 1.5]])).toBe('a,"b,c","d""e","f\ng",,1.5\r\n');
    expect(toCsv([])).toBe("");
  });

  it("is read back field for field by Python's csv module", () => {
    const read = spawnSync(
      "python3",
      [
        "-c",
        "import csv, io, json, sys; print(json.dumps(list(csv.reader(io.StringIO(sys.stdin.read(), newline='')))))",
      ],
      { input: toCsv(tricky), encoding: "utf8" },
    );
    expect(read.status, read.stderr).toBe(0);
    expect(JSON.parse(read.stdout)).toEqual(tricky.map((r) => r.map((v) => (v === null ? "" : String(v)))));
  });
});
