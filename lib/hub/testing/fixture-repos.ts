import { readFileSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "../../paths";
import type { FixtureRepo } from "./hub-server";

// Repositories the test hub serves, made from the project's own files: a small model with files a
// consumer never reads (.bin, .onnx), the tiny random CLIP under CLIP ViT-B/32's hub id, a gated
// model, and the benchmark's dataset laid out as on the hub, holding the project's sample tasks.

const embedderFixtures = path.join(projectRoot, "lib", "scoring", "frontend", "embedders", "fixtures");
const read = (...p: string[]) => readFileSync(path.join(...p));

/** Filler that differs per name, for files the resolver must not fetch. */
function filler(name: string, bytes: number): Buffer {
  const out = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i++) out[i] = (i * 31 + name.length * 7) & 0xff;
  return out;
}

export const GATED_TOKEN = "hf_fixture_token_for_the_gated_repo";

export function tinyWeightsRepo(): FixtureRepo {
  return {
    type: "model",
    name: "acme/tiny-weights",
    files: {
      "config.json": JSON.stringify({ model_type: "tiny", hidden_size: 4 }, null, 2),
      "model.safetensors": read(embedderFixtures, "dtypes.safetensors"),
      "tokenizer.json": JSON.stringify({ version: "1.0", model: { type: "WordLevel", vocab: { a: 0, b: 1 } } }),
      "pytorch_model.bin": filler("bin", 4096),
      "onnx/model.onnx": filler("onnx", 2048),
      "README.md": "# tiny-weights\n\nA fixture of the ColBench studio's tests.\n",
    },
  };
}

/** The committed tiny random CLIP, served as openai/clip-vit-base-patch32 (the id the studio defaults to). */
export function clipRepo(): FixtureRepo {
  return {
    type: "model",
    name: "openai/clip-vit-base-patch32",
    files: {
      "config.json": read(embedderFixtures, "tiny-clip", "config.json"),
      "model.safetensors": read(embedderFixtures, "tiny-clip", "model.safetensors"),
      "pytorch_model.bin": filler("pytorch", 8192),
      "flax_model.msgpack": filler("flax", 4096),
      "preprocessor_config.json": JSON.stringify({ crop_size: 96, do_resize: true, size: 96 }),
    },
  };
}

export function gatedRepo(): FixtureRepo {
  return { ...tinyWeightsRepo(), name: "acme/gated-model", gatedToken: GATED_TOKEN };
}

function sampleLines(file: string, from: number, to: number): string {
  const lines = readFileSync(path.join(projectRoot, "samples", file), "utf8")
    .trim()
    .split("\n")
    .slice(from, to);
  // Told apart from the seeded samples (tasks are keyed on content), so imports count as new.
  return (
    lines
      .map((line) => {
        const task = JSON.parse(line) as { problem_description: string };
        return JSON.stringify({ ...task, problem_description: `${task.problem_description} (hub fixture)` });
      })
      .join("\n") + "\n"
  );
}

/** facebook/collaborative_agent_bench as the hub lays it out, plus a frontend file the real one lacks. */
export function colbenchDatasetRepo(options: { frontend?: boolean } = {}): FixtureRepo {
  return {
    type: "dataset",
    name: "facebook/collaborative_agent_bench",
    files: {
      "README.md": "---\nlicense: other\n---\n# fixture of ColBench's dataset\n",
      ".gitattributes": "*.jsonl filter=lfs diff=lfs merge=lfs -text\n",
      "backend_tasks/test.jsonl": sampleLines("backend.jsonl", 0, 10),
      "backend_tasks/train.jsonl": sampleLines("backend.jsonl", 10, 14),
      "colbench_code_offline_15k_llama8b.jsonl": filler("offline", 16384),
      ...(options.frontend ? { "frontend_tasks/test.jsonl": sampleLines("frontend.jsonl", 0, 6) } : {}),
    },
  };
}
