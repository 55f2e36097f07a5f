import { describe, expect, it } from "vitest";
import { filterRows, nextOrder, parseSort, sortHref, sortRows, tableCsv, tableJson, type TableRow } from "./table";

const rows: TableRow[] = [
  { key: 1, cells: { name: { text: "run-10" }, reward: { text: "50.0% [40.0%, 60.0%]", sort: 0.5 } } },
  { key: 2, cells: { name: { text: "run-9" }, reward: { text: "–", sort: null } } },
  { key: 3, cells: { name: { text: "Run-2 baseline" }, reward: { text: "75.0% [70.0%, 80.0%]", sort: 0.75 } } },
  { key: 4, cells: { name: { text: "run-1" }, reward: { text: "50.0% [45.0%, 55.0%]", sort: 0.5 } } },
];
const keys = (r: TableRow[]) => r.map((x) => x.key);

describe("table", () => {
  it("sorts numbers by value, text naturally, empty cells last either way, ties stable", () => {
    expect(keys(sortRows(rows, { column: "reward", dir: "desc" }))).toEqual([3, 1, 4, 2]);
    expect(keys(sortRows(rows, { column: "reward", dir: "asc" }))).toEqual([1, 4, 3, 2]);
    expect(keys(sortRows(rows, { column: "name", dir: "asc" }))).toEqual([4, 3, 2, 1]);
    expect(keys(sortRows(rows, null))).toEqual([1, 2, 3, 4]);
  });

  it("filters by every word in any cell, case-insensitively", () => {
    expect(keys(filterRows(rows, "RUN 50.0%"))).toEqual([1, 4]);
    expect(keys(filterRows(rows, "baseline 75"))).toEqual([3]);
    expect(keys(filterRows(rows, "  "))).toEqual([1, 2, 3, 4]);
  });

  it("exports the shown text, in the shown order", () => {
    const columns = [
      { id: "name", header: "Run" },
      { id: "reward", header: "Reward, 95% CI", numeric: true },
    ];
    const shown = sortRows(rows, { column: "reward", dir: "desc" });
    expect(tableCsv(columns, shown).split("\r\n")).toEqual([
      'Run,"Reward, 95% CI"',
      'Run-2 baseline,"75.0% [70.0%, 80.0%]"',
      'run-10,"50.0% [40.0%, 60.0%]"',
      'run-1,"50.0% [45.0%, 55.0%]"',
      "run-9,–",
      "",
    ]);
    expect(JSON.parse(tableJson(columns, shown.slice(0, 1)))).toEqual({
      columns: [
        { id: "name", header: "Run" },
        { id: "reward", header: "Reward, 95% CI" },
      ],
      rows: [{ name: "Run-2 baseline", reward: "75.0% [70.0%, 80.0%]" }],
    });
  });

  it("reads sort and dir from an address, held to the allowed columns", () => {
    expect(parseSort({ sort: "reward", dir: "desc" }, ["reward"])).toEqual({ column: "reward", dir: "desc" });
    expect(parseSort({ sort: "reward", dir: "sideways" }, ["reward"])).toEqual({ column: "reward", dir: "asc" });
    expect(parseSort({ sort: "password" }, ["reward"], null)).toBeNull();
    expect(parseSort({ sort: ["a", "b"] }, ["a"])).toBeNull();
  });

  it("a header click asks numbers highest first, then flips; the link keeps filters and drops the page", () => {
    expect(nextOrder(null, { id: "reward", header: "R", numeric: true })).toEqual({ column: "reward", dir: "desc" });
    expect(nextOrder({ column: "reward", dir: "desc" }, { id: "reward", header: "R" })).toEqual({
      column: "reward",
      dir: "asc",
    });
    expect(nextOrder({ column: "reward", dir: "desc" }, { id: "name", header: "N" })).toEqual({
      column: "name",
      dir: "asc",
    });
    expect(sortHref("/runs/4?status=done&page=3", { column: "reward", dir: "desc" })).toBe(
      "/runs/4?status=done&sort=reward&dir=desc",
    );
  });
});
