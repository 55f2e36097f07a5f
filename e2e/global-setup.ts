import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startScriptedServer } from "./fixtures/scripted-model-server";

const root = path.resolve(import.meta.dirname, "..");

function colbench(dataDir: string, args: string[]): Promise<string> {
  const child = spawn(process.execPath, [path.join(root, "cli", "bin.mjs"), ...args], {
    cwd: root,
    env: { ...process.env, COLBENCH_DATA: dataDir, DATABASE_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (c) => (out += c));
  child.stderr.on("data", (c) => (out += c));
  return new Promise((resolve, reject) =>
    child.once("exit", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`colbench ${args.join(" ")} exited ${code}:\n${out}`)),
    ),
  );
}

/**
 * The data every worker's studio starts from (e2e/test.ts copies it): a fresh data folder holding the
 * sample tasks and small runs played against the scripted model server, which stays up for the whole run.
 */
export default async function globalSetup() {
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) {
    throw new Error("the studio is not built: run `npm run build` first (npm test does)");
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-e2e-"));
  await colbench(dataDir, ["db", "seed"]);
  const samples = (file: string) =>
    fs
      .readFileSync(path.join(root, "samples", file), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { problem_description: string; ground_truth: string });
  const tasks = [...samples("backend.jsonl"), ...samples("frontend.jsonl")].map((t) => ({
    problemDescription: t.problem_description,
    groundTruth: t.ground_truth,
  }));
  // The scripted model server stays up for the whole e2e run: tests start runs from the UI too.
  const models = await startScriptedServer({ tasks });
  process.env.COLBENCH_E2E_MODELS = models.url;
  await colbench(dataDir, [
    "run",
    "--benchmark",
    "backend",
    "--tasks",
    "ids=1-3",
    "--name",
    "e2e-backend",
    "--agent",
    `${models.url}#ask-then-answer`,
    "--simulator",
    `${models.url}#simulator`,
  ]);
  // Critic advantages for the agent turns (1, 3, 5) of the first episode (the fresh database's episode 1).
  const advantages = path.join(dataDir, "advantages.jsonl");
  fs.writeFileSync(
    advantages,
    [
      [1, 0.12],
      [3, -0.04],
      [5, 0.31],
    ]
      .map(([turn, advantage]) => JSON.stringify({ episode: 1, turn, advantage }))
      .join("\n"),
  );
  await colbench(dataDir, ["import-advantages", advantages]);
  await colbench(dataDir, [
    "run",
    "--benchmark",
    "backend",
    "--tasks",
    "ids=1-3",
    "--name",
    "weak-backend",
    "--agent",
    `${models.url}#never-answer`,
    "--simulator",
    `${models.url}#simulator`,
  ]);
  // SWEET-RL on the weak run: candidates for its agent turns, ranked by a critic (the replay shows them).
  await colbench(dataDir, ["candidates", "weak-backend", "--policy", `${models.url}#ask-then-answer`, "--n", "3"]);
  await colbench(dataDir, ["rank", "weak-backend", "--critic", `${models.url}#ask-then-answer`]);
  await colbench(dataDir, [
    "run",
    "--benchmark",
    "frontend",
    "--limit",
    "1",
    "--name",
    "e2e-frontend",
    "--agent",
    `${models.url}#ask-then-answer`,
    "--simulator",
    `${models.url}#simulator`,
  ]);
  // The same under the studio's earlier render profile: Compare and the Leaderboard must say the two differ.
  await colbench(dataDir, [
    "run",
    "--benchmark",
    "frontend",
    "--limit",
    "1",
    "--profile",
    "studio-1280",
    "--name",
    "older-frontend",
    "--agent",
    `${models.url}#ask-then-answer`,
    "--simulator",
    `${models.url}#simulator`,
  ]);
  process.env.COLBENCH_E2E_DATA = dataDir;
  return async () => {
    await models.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
