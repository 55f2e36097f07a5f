import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { COMMAND_MODULES, modulesFor } from "./commands";

describe("the command table", () => {
  it("names, for each module, exactly the top-level commands it registers", async () => {
    for (const [words, load] of COMMAND_MODULES) {
      const program = new Command();
      (await load()).register(program);
      expect(program.commands.flatMap((c) => [c.name(), ...c.aliases()]).sort()).toEqual([...words].sort());
    }
  });

  it("loads one module for a known command and every module otherwise", () => {
    const all = COMMAND_MODULES.length;
    expect(modulesFor(["node", "colbench", "rank", "RUN"])).toEqual([COMMAND_MODULES[12]![1]]);
    expect(modulesFor(["node", "colbench", "db", "backup"])).toHaveLength(1);
    for (const argv of [[], ["--help"], ["rnak"], ["help", "db"]])
      expect(modulesFor(["node", "colbench", ...argv])).toHaveLength(all);
  });

  it("gives every top-level word to one module only", () => {
    const words = COMMAND_MODULES.flatMap(([w]) => w);
    expect(new Set(words).size).toBe(words.length);
  });
});
