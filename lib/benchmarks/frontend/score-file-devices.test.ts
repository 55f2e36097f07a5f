import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { projectRoot, sharedColbenchDir } from "../../paths";
import { PAGE_VARIANTS } from "../../scoring/testing/page-variants";
import { scoreFrontendFile, type ScoreFrontendOptions } from "./score-file";

// `colbench score frontend` with CLIP on the cpu device (ONNX Runtime) and on the TypeScript
// reference: the same rewards on 50 real ColBench targets, each against a changed copy of itself
// (reworded, its layout broken, colours swapped, …: lib/scoring/testing/page-variants.ts). The tiny
// random CLIP by default; the full-size random ViT-B/32 where $COLBENCH_CLIP_FULL holds it.

const official = path.join(sharedColbenchDir(), "frontend_test.jsonl");
const weights =
  process.env.COLBENCH_CLIP_FULL ??
  path.join(projectRoot, "lib", "scoring", "frontend", "embedders", "fixtures", "tiny-clip");
const scratch = mkdtempSync(path.join(os.tmpdir(), "colbench-devices-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const sink = () => {
  const s = new PassThrough();
  s.resume();
  return s;
};

describe.skipIf(!existsSync(official))(
  `score frontend on cpu and reference devices (${existsSync(official) ? weights : "needs ../shared/colbench/frontend_test.jsonl"})`,
  () => {
    it("gives the same rewards to 1e-5 on 50 real target/answer pairs", { timeout: 1_200_000 }, async () => {
      const variants = Object.values(PAGE_VARIANTS);
      const targets = readFileSync(official, "utf8")
        .trim()
        .split("\n")
        .slice(0, 50)
        .map((l) => JSON.parse(l) as { problem_description: string; ground_truth: string });
      const input = path.join(scratch, "pairs.jsonl");
      writeFileSync(
        input,
        targets
          .map((t, i) => JSON.stringify({ task: t, answer: variants[i % variants.length]!(t.ground_truth) }))
          .join("\n") + "\n",
      );

      const previous = process.env.COLBENCH_DATA;
      process.env.COLBENCH_DATA = scratch;
      mkdirSync(path.join(scratch, "renders"), { recursive: true });
      const score = async (device: "cpu" | "reference") => {
        const out = path.join(scratch, `${device}.jsonl`);
        // Renders are cached (the second device renders nothing), embeddings are not: both devices
        // record the same embedder id, so the second would read the first's back.
        for (const file of readdirSync(path.join(scratch, "renders"), { recursive: true, encoding: "utf8" })) {
          if (file.endsWith(".f32")) rmSync(path.join(scratch, "renders", file));
        }
        const options: ScoreFrontendOptions = { out, clip: weights, device, concurrency: 2 };
        const code = await scoreFrontendFile(input, options, { stdout: sink(), stderr: sink() });
        expect(code).toBe(0);
        return readFileSync(out, "utf8")
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l) as { reward: number; embedder: string });
      };
      try {
        const cpu = await score("cpu");
        const reference = await score("reference");
        expect(
          readdirSync(path.join(scratch, "renders"), { recursive: true, encoding: "utf8" }).some((f) =>
            f.endsWith(".f32"),
          ),
        ).toBe(true);
        expect(cpu).toHaveLength(50);
        expect(new Set([...cpu, ...reference].map((r) => r.embedder)).size).toBe(1);
        const diffs = cpu.map((r, i) => Math.abs(r.reward - reference[i]!.reward));
        const rewards = cpu.map((r) => r.reward);
        console.log(
          `cpu vs reference on 50 pairs (${weights}): max |Δreward| ${Math.max(...diffs).toExponential(2)}, rewards ${Math.min(...rewards).toFixed(3)}..${Math.max(...rewards).toFixed(3)}`,
        );
        expect(Math.max(...diffs)).toBeLessThan(1e-5);
        // The pairs differ from one another, so equal rewards are not a constant.
        expect(Math.max(...rewards) - Math.min(...rewards)).toBeGreaterThan(0.01);
      } finally {
        if (previous === undefined) delete process.env.COLBENCH_DATA;
        else process.env.COLBENCH_DATA = previous;
      }
    });
  },
);
