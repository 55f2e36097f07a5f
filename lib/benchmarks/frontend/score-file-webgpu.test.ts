import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { projectRoot, sharedColbenchDir } from "../../paths";
import { PAGE_VARIANTS } from "../../scoring/testing/page-variants";
import { scoreFrontendFile, type ScoreFrontendOptions } from "./score-file";

// `colbench score frontend --device webgpu` against `--device cpu` (ONNX Runtime): the same rewards
// to 1e-4 on the first 100 real ColBench targets, each against a changed copy of itself
// (lib/scoring/testing/page-variants.ts). Every page is rendered once (the render cache serves the
// second device) and embedded both ways. The tiny random CLIP by default (real CLIP weights cannot
// be fetched here); the full-size random ViT-B/32 where $COLBENCH_CLIP_FULL holds it.
// $COLBENCH_DEVICE_PAIRS sets how many pairs (default 100).

const official = path.join(sharedColbenchDir(), "frontend_test.jsonl");
const weights =
  process.env.COLBENCH_CLIP_FULL ??
  path.join(projectRoot, "lib", "scoring", "frontend", "embedders", "fixtures", "tiny-clip");
const pairs = Number(process.env.COLBENCH_DEVICE_PAIRS || 100);
const scratch = mkdtempSync(path.join(os.tmpdir(), "colbench-webgpu-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const sink = () => {
  const s = new PassThrough();
  s.resume();
  return s;
};

type Line = {
  reward: number;
  embedder: string;
  embedder_device?: string;
  answer_render: string;
  target_render: string;
};

describe.skipIf(!existsSync(official))(
  `score frontend on cpu and webgpu devices (${existsSync(official) ? weights : "skipped: needs ../shared/colbench/frontend_test.jsonl"})`,
  () => {
    it(
      `gives the same rewards to 1e-4 on ${pairs} real target/answer pairs, recording the device`,
      { timeout: 1_800_000 },
      async () => {
        const variants = Object.values(PAGE_VARIANTS);
        const targets = readFileSync(official, "utf8")
          .trim()
          .split("\n")
          .slice(0, pairs)
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
        const score = async (device: "cpu" | "webgpu") => {
          const out = path.join(scratch, `${device}.jsonl`);
          // Renders are cached, embeddings too (under the embedder id the devices share): drop the
          // embeddings so the second device computes its own.
          for (const file of readdirSync(path.join(scratch, "renders"), { recursive: true, encoding: "utf8" })) {
            if (file.endsWith(".f32")) rmSync(path.join(scratch, "renders", file));
          }
          const options: ScoreFrontendOptions = { out, clip: weights, device, concurrency: 2 };
          const started = performance.now();
          const code = await scoreFrontendFile(input, options, { stdout: sink(), stderr: sink() });
          expect(code).toBe(0);
          console.log(`${device}: ${((performance.now() - started) / 1000).toFixed(1)} s for ${pairs} pairs`);
          return readFileSync(out, "utf8")
            .trim()
            .split("\n")
            .map((l) => JSON.parse(l) as Line);
        };
        try {
          const cpu = await score("cpu");
          const webgpu = await score("webgpu");
          expect(cpu).toHaveLength(pairs);
          expect(webgpu).toHaveLength(pairs);
          expect(new Set([...cpu, ...webgpu].map((r) => r.embedder)).size).toBe(1);
          expect(new Set(cpu.map((r) => r.embedder_device))).toEqual(new Set(["cpu"]));
          expect(new Set(webgpu.map((r) => r.embedder_device))).toEqual(new Set(["webgpu"]));
          // The same screenshots both ways.
          expect(webgpu.map((r) => [r.answer_render, r.target_render])).toEqual(
            cpu.map((r) => [r.answer_render, r.target_render]),
          );
          const diffs = cpu.map((r, i) => Math.abs(r.reward - webgpu[i]!.reward));
          const rewards = cpu.map((r) => r.reward);
          console.log(
            `cpu vs webgpu on ${pairs} pairs (${weights}): max |Δreward| ${Math.max(...diffs).toExponential(2)}, rewards ${Math.min(...rewards).toFixed(3)}..${Math.max(...rewards).toFixed(3)}`,
          );
          expect(Math.max(...diffs)).toBeLessThan(1e-4);
          // The pairs differ from one another, so equal rewards are not a constant.
          expect(Math.max(...rewards) - Math.min(...rewards)).toBeGreaterThan(0.01);
        } finally {
          if (previous === undefined) delete process.env.COLBENCH_DATA;
          else process.env.COLBENCH_DATA = previous;
        }
      },
    );
  },
);
