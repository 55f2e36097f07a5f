import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { STUDIO_NODE_FLAGS } from "./node-flags";

const root = path.resolve(import.meta.dirname, "..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

describe("the studio's Node flags", () => {
  // Each way the studio is started, and the line in it that starts the studio's process.
  const launchers: Array<[string, () => string]> = [
    [
      "scripts/studio.sh",
      () =>
        read("scripts/studio.sh")
          .split("\n")
          .find((l) => l.includes("cli/bin.mjs serve"))!,
    ],
    ["npm start", () => (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts.start!],
    [
      "deploy/colbench-studio.service",
      () =>
        read("deploy/colbench-studio.service")
          .split("\n")
          .find((l) => l.startsWith("ExecStart="))!,
    ],
    [
      "scripts/cluster-demo.sh",
      () =>
        read("scripts/cluster-demo.sh")
          .split("\n")
          .find((l) => l.includes("cli/bin.mjs serve"))!,
    ],
  ];

  it.each(launchers)("%s starts the studio with every one of them, before the script", (_, line) => {
    const words = line().trim().split(/\s+/);
    const script = words.indexOf("cli/bin.mjs");
    expect(script).toBeGreaterThan(0);
    for (const flag of STUDIO_NODE_FLAGS) {
      const at = words.indexOf(flag);
      expect(at, `${flag} in: ${line()}`).toBeGreaterThan(0);
      expect(at).toBeLessThan(script);
    }
  });

  it("are ones this Node takes, and give the young generation its 64 MB halves", () => {
    // The largest the young generation grew to while a loop allocated 20 MB of short-lived objects at a time.
    const probe = `const v8=require("v8");let most=0;for(let r=0;r<20;r++){const a=[];for(let i=0;i<1e6;i++)a.push({i});most=Math.max(most,v8.getHeapSpaceStatistics().find((s)=>s.space_name==="new_space").space_size)}process.stdout.write(String(most/2**20))`;
    const grown = (flags: readonly string[]) =>
      Number(execFileSync(process.execPath, [...flags, "-e", probe], { encoding: "utf8" }));
    expect(grown(STUDIO_NODE_FLAGS)).toBeGreaterThan(grown([]));
    expect(grown(STUDIO_NODE_FLAGS)).toBeGreaterThanOrEqual(128);
  });
});
