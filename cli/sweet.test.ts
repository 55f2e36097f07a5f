import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../lib/db/open";
import { projectRoot } from "../lib/paths";
import { runColbench, spawnColbench } from "./testing/colbench";
import { chatTemplate, promptText } from "../lib/sweet/chat-template";
import { criticPrompt, groundTruthPrefix } from "../lib/sweet/critic";
import {
  pseudoLogprob,
  startScriptedServer,
  tokenize,
  type ScriptedServer,
} from "../e2e/fixtures/scripted-model-server";
import { storeFor } from "../lib/store";
import { MemoryBus } from "../lib/events/memory-bus";
import { PipelineJobs } from "../lib/sweet/jobs";
import { chatTemplateSource, renderJinja, specialTokensOf, promptMessages } from "../lib/sweet/chat-template";

// The whole SWEET-RL loop through the real `colbench` binary against the scripted model server:
// a best-of-3 run, trajectory pairs, candidates, ranking, turn pairs, the training files. The
// server's log-probs are a known function of the text, so advantages are recomputed here by hand.

const bin = path.join(projectRoot, "cli", "bin.mjs");
const taskFile = path.join(projectRoot, "samples", "backend.jsonl");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-sweet-"));
const N = 4;
let server: ScriptedServer;

const colbench = (args: string[], killAfterMs?: number) => runColbench(dataDir, args, { killAfterMs });

async function ok(args: string[]): Promise<Record<string, unknown>> {
  const result = await colbench(args);
  expect(result.status, `colbench ${args.join(" ")}\n${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout.trim().split("\n").pop()!) as Record<string, unknown>;
}

// The test's own look at the folder stays open between checks (opening PGlite costs seconds); while it
// is, the commands reach the folder through it, as they do while a studio is open.
let held: Database | undefined;

async function withDb<T>(use: (db: Database) => Promise<T>): Promise<T> {
  held ??= await openDatabase({ pgliteDir: path.join(dataDir, "db"), url: "" });
  return use(held);
}

/** Before a command is killed: it must own the folder itself, so kill -9 lands mid-write in the database too. */
async function releaseDb(): Promise<void> {
  await held?.close();
  held = undefined;
}

/** The formula, by hand: the server's log-probs over the critic prompt's span after the last <|eot_id|>, less the trailing 4-token header. */
function expectedCriticMean(prompt: string): number {
  const tokens = tokenize(prompt);
  const logprobs = tokens.map((t, i) => (i === 0 ? null : pseudoLogprob(t, tokens[i - 1])));
  const body = tokens.slice(0, tokens.length - 4);
  const last = body.lastIndexOf("<|eot_id|>");
  const span = logprobs.slice(last + 1, body.length) as number[];
  return span.reduce((a, b) => a + b, 0) / span.length;
}

/** A sample's mean log-prob: its tokens and the end-of-sequence token it ended on (vLLM scores that one too). */
function expectedPolicyMean(text: string): number {
  const tokens = [...tokenize(text), "<|eot_id|>"];
  const lps = tokens.map((t, i) => pseudoLogprob(t, tokens[i - 1] ?? ""));
  return lps.reduce((a, b) => a + b, 0) / lps.length;
}

beforeAll(async () => {
  const tasks = fs
    .readFileSync(taskFile, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { problem_description: string; ground_truth: string });
  server = await startScriptedServer({
    tasks: tasks.map((t) => ({ problemDescription: t.problem_description, groundTruth: t.ground_truth })),
    slowMs: 30,
  });
  expect((await colbench(["import", taskFile, "--benchmark", "backend"])).status).toBe(0);
}, 60_000);

afterAll(async () => {
  await releaseDb();
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the SWEET-RL loop from a best-of-3 run to the training files", () => {
  const model = (name: string) => `${server.url}#${name}`;

  it("plays a best-of-3 run and makes trajectory pairs by the backend rule", { timeout: 120_000 }, async () => {
    await ok([
      "run",
      "--benchmark",
      "backend",
      "--tasks",
      "ids=1-3",
      "--best-of",
      "3",
      "--name",
      "loop",
      "--agent",
      model("ask-then-answer"),
      "--simulator",
      model("simulator"),
    ]);
    // The scripted agent always answers right; give samples other rewards so the rule has something
    // to choose between (task 1: 1, 0.5, 1; task 2: 0, 0, 0; task 3: 0.2, 1, 1).
    await withDb(async (db) => {
      const rewards: Record<string, number> = {
        "1:0": 1,
        "1:1": 0.5,
        "1:2": 1,
        "2:0": 0,
        "2:1": 0,
        "2:2": 0,
        "3:0": 0.2,
        "3:1": 1,
        "3:2": 1,
      };
      const episodes = await db.prisma.episode.findMany({ where: { run: { name: "loop" } } });
      for (const e of episodes)
        await db.prisma.episode.update({ where: { id: e.id }, data: { reward: rewards[`${e.taskId}:${e.sample}`] } });
    });
    const pairs = await ok(["pairs", "loop", "--with-ground-truth"]);
    expect(pairs).toMatchObject({ pairs: 2, tasks: 2 });
    // Again: the same pairs, nothing added.
    expect(await ok(["pairs", "loop", "--with-ground-truth"])).toMatchObject({ pairs: 2 });
    await withDb(async (db) => {
      const rows = await db.prisma.pair.findMany({ where: { kind: "trajectory" }, include: {} });
      expect(rows).toHaveLength(2);
      const sample = async (id: number) => (await db.prisma.episode.findUniqueOrThrow({ where: { id } })).sample;
      expect(await Promise.all(rows.map(async (p) => [await sample(p.chosenId), await sample(p.rejectedId)]))).toEqual([
        [0, 1],
        [1, 0],
      ]);
    });
    const critic = (await colbench(["export", "loop", "--format", "openrlhf-critic"])).stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { chosen: string; rejected: string });
    expect(critic).toHaveLength(2);
    const task1 = JSON.parse(fs.readFileSync(taskFile, "utf8").split("\n")[0]!) as { ground_truth: string };
    expect(critic[0]!.chosen.startsWith(groundTruthPrefix(task1.ground_truth))).toBe(true);
    expect(critic[0]!.chosen).toContain("<|start_header_id|>assistant<|end_header_id|>");
  });

  it(
    "samples candidates, survives kill -9 mid-way, and adds nothing when run again",
    { timeout: 180_000 },
    async () => {
      // Samples whose log-probs cover part of them, or hold a value no probability has, stop the step
      // naming the server and the cause; nothing is stored.
      for (const [name, cause] of [
        [
          "half-logprobs",
          /sample 0: its \d+ scored tokens spell \d+ characters, not its text of \d+ \(the log-probs cover part of the sample\)/,
        ],
        // The step scores the turn's own output first (echoed), so the prompt's token is the one refused.
        [
          "positive-logprob",
          /#positive-logprob \/completions: incomplete answer: prompt token \d+ has the log-prob 2.5, which no probability has/,
        ],
      ] as const) {
        const refused = await colbench(["candidates", "loop", "--policy", model(name), "--n", "2"]);
        expect(refused.status, name).toBe(1);
        expect(refused.stderr, name).toContain(`${server.url}#${name}`);
        expect(refused.stderr, `${name}: ${refused.stderr}`).toMatch(cause);
        expect(await withDb((db) => db.prisma.candidate.count()), name).toBe(0);
      }
      // Killed while sampling (the slow policy answers after 30 ms), then run again to the end.
      await releaseDb();
      const killed = await colbench(
        ["candidates", "loop", "--policy", model("slow:30"), "--n", String(N), "--concurrency", "2"],
        1_500,
      );
      expect(killed.status).toBeNull();
      const first = await ok(["candidates", "loop", "--policy", model("slow:30"), "--n", String(N)]);
      await withDb(async (db) => {
        const turns = await db.prisma.turn.count({ where: { role: "agent", episode: { run: { name: "loop" } } } });
        expect(first.states).toBe(turns);
        const perTurn = await db.prisma.candidate.groupBy({ by: ["turnId"], _count: { _all: true } });
        expect(perTurn).toHaveLength(turns);
        expect(perTurn.every((g) => g._count._all === N + 1)).toBe(true);
      });
      expect(await ok(["candidates", "loop", "--policy", model("slow:30"), "--n", String(N)])).toMatchObject({
        sampled: 0,
        candidates: 0,
      });
    },
  );

  it(
    "ranks by the critic: advantage = the span's mean log-prob minus the policy's, as computed by hand",
    { timeout: 180_000 },
    async () => {
      await releaseDb();
      const killed = await colbench(["rank", "loop", "--critic", model("slow:30"), "--concurrency", "1"], 1_500);
      expect(killed.status).toBeNull();
      await ok(["rank", "loop", "--critic", model("ask-then-answer")]);
      expect(await ok(["rank", "loop", "--critic", model("ask-then-answer")])).toMatchObject({ ranked: 0 });
      const llama = chatTemplate("llama3");
      await withDb(async (db) => {
        const candidates = await db.prisma.candidate.findMany({
          include: { turn: { include: { episode: { include: { task: true } } } } },
        });
        expect(candidates.length).toBeGreaterThan(0);
        expect(candidates.every((c) => c.advantage !== null)).toBe(true);
        for (const c of candidates) {
          const prompt = criticPrompt(llama, c.turn.episode.task.groundTruth, promptText(llama, c.turn.prompt), c.text);
          expect(c.criticScore).toBeCloseTo(expectedCriticMean(prompt), 9);
          if (c.index > 0) expect(c.policyMean).toBeCloseTo(expectedPolicyMean(c.text), 9);
          expect(c.advantage).toBeCloseTo(c.criticScore! - c.policyMean, 9);
        }
        // The turn's own output is candidate 0: its advantage is the turn's, which the replay charts.
        const own = candidates.find((c) => c.index === 0)!;
        expect((await db.prisma.turn.findUniqueOrThrow({ where: { id: own.turnId } })).advantage).toBeCloseTo(
          own.advantage!,
          9,
        );
      });
    },
  );

  it("draws turn pairs reproducibly and writes the policy's and TRL's files", { timeout: 180_000 }, async () => {
    const made = await ok(["turn-pairs", "loop", "--pairs-per-state", "4", "--seed", "7"]);
    expect(made.pairs).toBe((made.states as number) * 4);
    const once = (await colbench(["export", "loop", "--format", "openrlhf-policy"])).stdout;
    expect(await ok(["turn-pairs", "loop", "--pairs-per-state", "4", "--seed", "7"])).toMatchObject({
      pairs: made.pairs,
    });
    expect((await colbench(["export", "loop", "--format", "openrlhf-policy"])).stdout).toBe(once);
    const lines = once
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { chosen: string; rejected: string });
    expect(lines).toHaveLength(made.pairs as number);
    expect(lines.every((l) => l.chosen.endsWith("<|eot_id|>") && l.chosen.startsWith("<|begin_of_text|>"))).toBe(true);
    // Exports only read the run: the three start together.
    const [withPromptExport, trlExport, bestOfK] = await Promise.all(
      [["openrlhf-policy", "--with-prompt"], ["trl-dpo"], ["official-best-of-k"]].map((format) =>
        colbench(["export", "loop", "--format", ...format]),
      ),
    );
    const withPrompt = JSON.parse(withPromptExport!.stdout.split("\n")[0]!) as Record<string, unknown>;
    expect(Object.keys(withPrompt)).toEqual(["prompt", "chosen", "rejected"]);
    // TRL's string format: prompt + reply is the OpenRLHF policy line's text, pair by pair.
    const trl = trlExport!.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { prompt: string; chosen: string; rejected: string });
    expect(trl.map((l) => ({ chosen: l.prompt + l.chosen, rejected: l.prompt + l.rejected }))).toEqual(lines);
    expect(trl.every((l) => l.chosen.endsWith("<|eot_id|>"))).toBe(true);
    // The official best-of-k layout: k blocks of the task list.
    const file = bestOfK!.stdout;
    const blocks = file
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { task: { problem_description: string } });
    expect(blocks).toHaveLength(9);
    expect(blocks[3]!.task.problem_description).toBe(blocks[0]!.task.problem_description);
    expect(blocks[1]!.task.problem_description).not.toBe(blocks[0]!.task.problem_description);
    // Loaded back from that file, the same samples make the same pairs as the run did.
    const layoutFile = path.join(dataDir, "loop-best-of-3.jsonl");
    fs.writeFileSync(layoutFile, file);
    await ok(["import-trajectories", layoutFile, "--name", "loop-file"]);
    expect(await ok(["pairs", "loop-file", "--with-ground-truth"])).toMatchObject({ pairs: 2, tasks: 2 });
    const critic = (run: string) => colbench(["export", run, "--format", "openrlhf-critic"]).then((r) => r.stdout);
    const [fromFile, fromRun] = await Promise.all([critic("loop-file"), critic("loop")]);
    expect(fromFile).toBe(fromRun);
  });

  it(
    "says what made each step's output: `colbench lineage` and the training files' metadata",
    { timeout: 120_000 },
    async () => {
      // Four reads of the finished steps, started together.
      const [json, plain, exported, critic] = await Promise.all([
        colbench(["lineage", "loop", "--json"]),
        colbench(["lineage", "loop"]),
        colbench(["export", "loop", "--format", "trl-dpo"]),
        colbench(["export", "loop", "--format", "openrlhf-critic"]),
      ]);
      expect(json.status, json.stderr).toBe(0);
      const lineage = JSON.parse(json.stdout) as Record<string, Array<Record<string, unknown>>>;
      // The refused policies stored nothing and left no record (the killed start may have, if it got that far).
      expect(new Set(lineage.candidates!.map((l) => (l.policy as { model: string }).model))).toEqual(
        new Set(["slow:30"]),
      );
      const [candidates] = lineage.candidates!;
      expect(candidates).toMatchObject({
        run: { name: "loop" },
        via: "cli",
        policy: { url: server.url, model: "slow:30" },
        template: "llama3",
        n: N,
        temperature: 1,
        maxTokens: 1024,
      });
      const [rank] = lineage.rank!;
      expect(rank).toMatchObject({
        critic: { url: server.url, model: "ask-then-answer" },
        groundTruth: true,
        sum: false,
      });
      expect(lineage["turn-pairs"]![0]).toMatchObject({
        pairsPerState: 4,
        seed: 7,
        pool: "samples",
        order: "task",
        from: { candidates: candidates!.id, rank: rank!.id },
      });
      expect(lineage.pairs![0]).toMatchObject({ rule: "backend-best-of-k", groundTruth: true });

      const text = plain.stdout.split("\n");
      expect(text.find((l) => l.startsWith("candidates: "))).toContain(
        `run loop · policy ${server.url}#slow:30 · template llama3 · n ${N} per turn · temperature 1 · max 1024 tokens`,
      );
      expect(text.find((l) => l.startsWith("turn-pairs: "))).toContain(
        "4 pairs per turn · seed 7 · pool samples · order task",
      );

      // The policy's file names the records its lines came from.
      const meta = JSON.parse(exported.stderr.trim().split("\n").pop()!) as {
        lineage: { run: { name: string }; template: string; steps: Array<{ id: number; step: string }> };
      };
      expect(meta.lineage.run.name).toBe("loop");
      expect(meta.lineage.template).toBe("llama3");
      expect(meta.lineage.steps.map((s) => s.id)).toEqual([candidates!.id, rank!.id, lineage["turn-pairs"]![0]!.id]);
      expect(
        (
          JSON.parse(critic.stderr.trim().split("\n").pop()!) as { lineage: { steps: Array<{ step: string }> } }
        ).lineage.steps.map((s) => s.step),
      ).toEqual(["pairs"]);
    },
  );

  it("ends an export quietly when its reader closes the pipe early (`| head`)", () => {
    // `true` exits before colbench writes a line, so the export's writes meet a closed pipe.
    const result = spawnSync(
      "bash",
      [
        "-c",
        `"${process.execPath}" "${bin}" export loop --format official | true; echo "status=\${PIPESTATUS[0]}" >&2`,
      ],
      {
        cwd: projectRoot,
        env: { ...process.env, COLBENCH_DATA: dataDir, DATABASE_URL: "" },
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    expect(result.stderr).not.toMatch(/EPIPE|Error/);
    expect(result.stderr).toContain("status=0");
  });
});

describe("files that go into the published scripts and come back", () => {
  const model = (name: string) => `${server.url}#${name}`;
  const lines = (text: string) =>
    text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { dialogue_history: Array<{ role: string; input?: unknown; output?: string }> });
  const stringsFile = path.join(dataDir, "loop-official.jsonl");

  it(
    "the official export's agent inputs are the prompt strings the policy saw; --inputs messages keeps the stored messages",
    { timeout: 60_000 },
    async () => {
      const [strings, stored] = await Promise.all([
        colbench(["export", "loop", "--format", "official"]),
        colbench(["export", "loop", "--format", "official", "--inputs", "messages"]),
      ]);
      const official = strings.stdout;
      const messages = lines(stored.stdout);
      const llama = chatTemplate("llama3");
      const exported = lines(official);
      expect(exported.length).toBe(9);
      let agentTurns = 0;
      exported.forEach((trajectory, i) => {
        trajectory.dialogue_history.forEach((turn, j) => {
          if (turn.role !== "assistant") return;
          agentTurns++;
          const stored = messages[i]!.dialogue_history[j]!.input;
          expect(Array.isArray(stored)).toBe(true);
          expect(typeof turn.input).toBe("string");
          expect(turn.input).toBe(promptText(llama, stored));
        });
      });
      expect(agentTurns).toBeGreaterThan(9);
      fs.writeFileSync(stringsFile, official);
    },
  );

  it(
    "a file in the published layout (string inputs) imports, samples through /v1/completions, ranks and exports back identically",
    { timeout: 180_000 },
    async () => {
      await ok(["import-trajectories", stringsFile, "--name", "strings"]);
      // A policy whose completions answers ignore echo: its own output cannot be scored; nothing is stored.
      const broken = await colbench(["candidates", "strings", "--policy", model("no-echo"), "--n", "3"]);
      expect(broken.status).not.toBe(0);
      expect(broken.stderr).toContain(`${server.url}#no-echo`);
      expect(broken.stderr).toMatch(/incomplete answer: .*ignored echo/);
      const countOf = (where: object) =>
        withDb((db) =>
          db.prisma.candidate.count({ where: { turn: { episode: { run: { name: "strings" } } }, ...where } }),
        );
      expect(await countOf({})).toBe(0);
      // A completions sample with a log-prob above 0 is refused too.
      const positive = await colbench(["candidates", "strings", "--policy", model("positive-logprob"), "--n", "3"]);
      expect(positive.status).toBe(1);
      expect(positive.stderr).toMatch(/#positive-logprob \/completions: incomplete answer: .*has the log-prob 2.5/);
      expect(await countOf({})).toBe(0);

      // 16 a state, the published count: over 256 candidates, so ranking writes in several batches.
      const sampled = await ok(["candidates", "strings", "--policy", model("ask-then-answer"), "--n", "16"]);
      expect(sampled.sampled).toBeGreaterThan(0);
      expect(sampled.candidates).toBe((sampled.states as number) * 17);
      expect(await countOf({ sampledVia: "completions" })).toBe((sampled.states as number) * 16);
      expect((sampled.states as number) * 17).toBeGreaterThan(256);
      expect(await countOf({ sampledVia: "own" })).toBe(sampled.states);
      await withDb(async (db) => {
        const samples = await db.prisma.candidate.findMany({
          where: { sampledVia: "completions", turn: { episode: { run: { name: "strings" } } } },
          include: { turn: true },
        });
        for (const c of samples) {
          // Sampled after the prompt string: the first token follows the prompt's last.
          expect(typeof c.turn.prompt).toBe("string");
          const tokens = [...tokenize(c.text), "<|eot_id|>"];
          const previous = [tokenize(c.turn.prompt as string).at(-1)!, ...tokens];
          const lps = tokens.map((t, i) => pseudoLogprob(t, previous[i]));
          expect(c.policyMean).toBeCloseTo(lps.reduce((a, b) => a + b, 0) / lps.length, 9);
        }
      });

      // Critics whose answers do not cover the prompt stop the step, naming the server and the cause; nothing is stored.
      const faults: Array<[string, RegExp]> = [
        ["no-echo", /ignored echo/],
        ["truncated-prompt", /cut or changed the prompt/],
        ["null-logprobs", /have no log-prob/],
        ["shifted-offsets", /text_offset\[3\]/],
        ["forced-bos", /BOS token it added/],
        ["empty-bos", /an empty token in front of the prompt/],
        ["positive-logprob", /prompt token \d+ has the log-prob 2.5, which no probability has/],
      ];
      // Each attempt fails on its own critic's first answer and stores nothing, so they may all run at once: a
      // score any of them stored is still counted below.
      const results = await Promise.all(faults.map(([name]) => colbench(["rank", "strings", "--critic", model(name)])));
      faults.forEach(([name, cause], i) => {
        const result = results[i]!;
        expect(result.status, name).not.toBe(0);
        expect(result.stderr, name).toContain(`${server.url}#${name}`);
        expect(result.stderr, name).toMatch(cause);
        expect(result.stdout, name).not.toContain("ranked");
      });
      expect(await countOf({ NOT: { criticScore: null } }), faults.map(([name]) => name).join(", ")).toBe(0);
      // A critic answering HTTP 500 is said at once (the step keeps retrying until its give-up), not only at the end:
      // the give-up is 10 s after the step starts, so a message said only then comes later than 10 s after the spawn.
      const started = Date.now();
      const failing = spawnColbench(dataDir, ["rank", "strings", "--critic", model("flaky:1000000")], {
        env: { COLBENCH_GIVE_UP: "10s" },
      });
      await failing.waitFor(
        /rank: waiting: the critic server http:\/\/127\.0\.0\.1:\d+\/v1 is not answering \(HTTP 500\) since \d\d:\d\d:\d\d UTC; the step keeps retrying and gives up at \d\d:\d\d:\d\d UTC/,
        10_000,
      );
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await failing.exited).toBe(1);
      expect(failing.output()).toMatch(/HTTP 500.*gave up after \d+ attempts/);
      expect(await countOf({ NOT: { criticScore: null } })).toBe(0);
      await ok(["rank", "strings", "--critic", model("ask-then-answer")]);
      expect(await countOf({ criticScore: null })).toBe(0);
      const pairs = await ok(["turn-pairs", "strings"]);
      expect(pairs).toMatchObject({ pool: "samples", pairs: (sampled.states as number) * 8 });
      await withDb(async (db) => {
        const drawn = await db.prisma.pair.findMany({ where: { kind: "turn", run: { name: "strings" } } });
        const own = await db.prisma.candidate.count({
          where: { index: 0, id: { in: drawn.flatMap((p) => [p.chosenId, p.rejectedId]) } },
        });
        expect(own).toBe(0);
      });
      // The policy's file says which pool its pairs came from.
      expect((await colbench(["export", "strings", "--format", "openrlhf-policy"])).stderr).toContain(
        `"pool":"samples"`,
      );
      expect((await colbench(["export", "strings", "--format", "official"])).stdout).toBe(
        fs.readFileSync(stringsFile, "utf8"),
      );
    },
  );

  it("the training-data panel's rank step ends with the same cause", { timeout: 60_000 }, async () => {
    await withDb(async (db) => {
      const store = storeFor(db.prisma);
      const bus = new MemoryBus();
      const jobs = new PipelineJobs(store, bus);
      const run = (await store.runs.find("strings"))!;
      await db.prisma.candidate.updateMany({
        where: { turn: { episode: { runId: run.id } } },
        data: { criticScore: null, advantage: null, criticModel: null },
      });
      jobs.start(run.id, { step: "rank", server: model("no-echo") });
      await expect.poll(() => jobs.status(run.id)?.state, { timeout: 30_000 }).toBe("crashed");
      const event = jobs.status(run.id)!;
      expect(event.error).toContain(`${server.url}#no-echo`);
      expect(event.error).toMatch(/incomplete answer: .*ignored echo/);
      // A critic answering HTTP 500: the panel's event says so within seconds while the step retries.
      jobs.start(run.id, { step: "rank", server: model("flaky:1000000") });
      await expect.poll(() => jobs.status(run.id)?.waiting?.cause, { timeout: 10_000 }).toBe("HTTP 500");
      expect(jobs.status(run.id)).toMatchObject({ state: "running", waiting: { server: `${server.url}` } });
      await jobs.stop(run.id);
      await jobs.close();
      await bus.close();
    });
  });

  it(
    "--template FOLDER writes the run's strings in the model's own template, recorded for every later step",
    { timeout: 60_000 },
    async () => {
      const folder = path.join(projectRoot, "lib", "sweet", "fixtures", "chat-templates", "dated-header");
      const config = JSON.parse(fs.readFileSync(path.join(folder, "tokenizer_config.json"), "utf8")) as Record<
        string,
        unknown
      >;
      const official = lines((await colbench(["export", "loop", "--format", "official", "--template", folder])).stdout);
      const stored = lines((await colbench(["export", "loop", "--format", "official", "--inputs", "messages"])).stdout);
      const day = await withDb(async (db) =>
        (await db.prisma.run.findUniqueOrThrow({ where: { name: "loop" } })).createdAt.toISOString().slice(0, 10),
      );
      const turn = official[0]!.dialogue_history.findIndex((t) => t.role === "assistant");
      const want = renderJinja(chatTemplateSource(config)!, promptMessages(stored[0]!.dialogue_history[turn]!.input), {
        specialTokens: specialTokensOf(config),
        date: new Date(`${day}T12:00:00Z`),
      });
      expect(official[0]!.dialogue_history[turn]!.input).toBe(want);
      expect(want).toContain("Current date: ");
      // Recorded: later exports use it without being told, and refuse another.
      expect(
        lines((await colbench(["export", "loop", "--format", "official"])).stdout)[0]!.dialogue_history[turn]!.input,
      ).toBe(want);
      const mixed = await colbench(["export", "loop", "--format", "official", "--template", "llama3"]);
      expect(mixed.status).not.toBe(0);
      expect(mixed.stderr).toMatch(/would mix two/);
    },
  );
});
