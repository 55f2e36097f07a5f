import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/db/open";
import { setDatabase } from "@/lib/db";
import { VIEWER_HEADER, type Viewer } from "@/lib/access/viewer";
import { projectRoot } from "@/lib/paths";
import { appendTurn, ensureEpisodes } from "@/lib/store/episodes";
import { importTasks } from "@/lib/store/import-tasks";
import { groundTruthPrefix } from "@/lib/sweet/critic";
import { setStudioTurnScorer } from "@/lib/gpu/live-service";
import { studioTurnScorer } from "@/lib/gpu/node/live-scorer";
import { parseServerSpec } from "@/lib/colbench/server-spec";
import { OpenAICompatibleClient } from "@/lib/models/openai-client";
import { storeFor } from "@/lib/store";
import { chatTemplate } from "@/lib/sweet/chat-template";
import { giveLiveServers } from "@/lib/sweet/live-servers";
import { rankCandidates, sampleCandidates } from "@/lib/sweet/pipeline";
import { startScriptedServer, type ScriptedServer } from "@/e2e/fixtures/scripted-model-server";
import { GET, POST } from "./route";

// /api/episodes/ID/advantages/live from outside, as each viewer asks it: a person in the agent's seat
// gets numbers (and what computed them) in practice play only, never the critic's prompt or the task's
// final answer; in an evaluation run, or for another episode, nothing. Scored with served weights, and
// (no weights served) through the scripted model server, equal to what `candidates` and `rank` store.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-live-route-"));
const fixtures = path.join(projectRoot, "lib", "gpu", "fixtures");
const env = { ...process.env };
let db: Database;
let groundTruth: string;
const episodes: Record<"practice" | "evaluation", number> = { practice: 0, evaluation: 0 };

const researcher: Viewer = { kind: "user", id: 1, name: "r", role: "researcher" };
const agentSeat = (episodeId: number): Viewer => ({ kind: "seats", seats: [{ episodeId, seat: "agent" }] });

function call(method: "GET" | "POST", id: number, viewer: Viewer, body?: unknown) {
  const request = new Request(`http://studio/api/episodes/${id}/advantages/live`, {
    method,
    headers: { "content-type": "application/json", [VIEWER_HEADER]: JSON.stringify(viewer) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const params = { params: Promise.resolve({ id: String(id) }) };
  return method === "GET" ? GET(request, params) : POST(request, params);
}

beforeAll(async () => {
  process.env.COLBENCH_CRITIC_WEIGHTS = path.join(fixtures, "llama-tiny");
  process.env.COLBENCH_POLICY_WEIGHTS = path.join(fixtures, "llama-tiny-bf16");
  process.env.COLBENCH_LIVE_DEVICE = "cpu";
  setStudioTurnScorer(studioTurnScorer);
  db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
  setDatabase(db);
  await importTasks(db.prisma, {
    file: path.join(projectRoot, "samples", "backend.jsonl"),
    benchmark: "backend",
    name: "samples",
  });
  const task = await db.prisma.task.findFirstOrThrow();
  groundTruth = task.groundTruth;
  for (const [name, kind] of [
    ["practice", "played"],
    ["evaluation", "benchmark"],
  ] as const) {
    const run = await db.prisma.run.create({ data: { name, benchmark: "backend", kind, config: {} } });
    await ensureEpisodes(db.prisma, run.id, [task.id], 1);
    const id = (await db.prisma.episode.findFirstOrThrow({ where: { runId: run.id } })).id;
    episodes[name] = id;
    await appendTurn(db.prisma, id, { index: 0, role: "simulator", content: "the task" });
    await appendTurn(db.prisma, id, {
      index: 1,
      role: "agent",
      content: "What should an empty string give?",
      rawOutput: "OUTPUT: What should an empty string give?",
      prompt: [{ role: "user", content: "Write f." }],
    });
  }
}, 120_000);

afterAll(async () => {
  process.env = env;
  setStudioTurnScorer(undefined);
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("live advantages for the agent's seat", () => {
  it("scores a sent turn in the studio and answers numbers only, in practice play", { timeout: 120_000 }, async () => {
    const id = episodes.practice;
    const response = await call("POST", id, agentSeat(id), { turns: [1] });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    const body = JSON.parse(text) as { coach: boolean; advantages: Array<Record<string, unknown>> };
    expect(body.coach).toBe(true);
    expect(body.advantages).toHaveLength(1);
    expect(body.advantages[0]).toMatchObject({ turn: 1, device: "studio: cpu", criticModel: "llama-tiny" });
    expect(typeof body.advantages[0]!.advantage).toBe("number");
    // Nothing of what the critic was told: the final answer, its lead-in, a prompt.
    for (const secret of [groundTruth, groundTruthPrefix(groundTruth), "In light that the final answer is"])
      expect(text).not.toContain(JSON.stringify(secret).slice(1, -1));
    expect(Object.keys(body.advantages[0]!).sort()).toEqual(KEYS);
    // Asked again, the kept value stands (no second record).
    const again = (await (await call("POST", id, agentSeat(id), { turns: [1] })).json()) as typeof body;
    expect(again.advantages[0]!.record).toBe(body.advantages[0]!.record);
    expect(((await (await call("GET", id, agentSeat(id))).json()) as typeof body).advantages).toEqual(body.advantages);
    expect(((await (await call("GET", id, researcher)).json()) as typeof body).advantages).toEqual(body.advantages);
  });

  it("refuses the agent's seat in an evaluation run, another episode's seat, and a simulator turn", async () => {
    const id = episodes.evaluation;
    for (const method of ["GET", "POST"] as const) {
      const refused = await call(method, id, agentSeat(id), method === "POST" ? { turns: [1] } : undefined);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { error: string }).error).toContain("coach mode is off");
      const other = await call(
        method,
        id,
        agentSeat(episodes.practice),
        method === "POST" ? { turns: [1] } : undefined,
      );
      expect(other.status).toBe(404);
    }
    expect(await db.prisma.browserScoring.count({ where: { episodeId: id } })).toBe(0);
    const simulator = await call("POST", episodes.practice, researcher, { turns: [0] });
    expect(simulator.status).toBe(400);
    expect(((await simulator.json()) as { error: string }).error).toContain("no stored agent turn 0");
    expect((await call("POST", episodes.practice, researcher, { turns: ["x"] })).status).toBe(400);
  });
});

const KEYS = [
  "advantage",
  "createdAt",
  "criticModel",
  "criticScore",
  "device",
  "policyMean",
  "policyModel",
  "policySum",
  "record",
  "settings",
  "template",
  "turn",
].sort();

describe("live advantages through model servers (no weights served)", () => {
  let server: ScriptedServer;
  let runId = 0;
  const ids: number[] = [];
  const given = (critic: string, policy: string) =>
    giveLiveServers({ critic: `${server.url}#${critic}`, policy: `${server.url}#${policy}` });
  const client = (model: string) =>
    new OpenAICompatibleClient(parseServerSpec(`${server.url}#${model}`), { giveUpMs: 5_000 });
  const secrets = () => [groundTruth, groundTruthPrefix(groundTruth), "In light that the final answer is", "Write f."];
  const leaks = (text: string) => secrets().filter((x) => text.includes(JSON.stringify(x).slice(1, -1)));

  beforeAll(async () => {
    server = await startScriptedServer();
    delete process.env.COLBENCH_CRITIC_WEIGHTS;
    delete process.env.COLBENCH_POLICY_WEIGHTS;
    const task = await db.prisma.task.findFirstOrThrow();
    const run = await db.prisma.run.create({
      data: { name: "practice-servers", benchmark: "backend", kind: "played", config: {} },
    });
    runId = run.id;
    await ensureEpisodes(db.prisma, run.id, [task.id], 3);
    for (const e of await db.prisma.episode.findMany({ where: { runId: run.id }, orderBy: { id: "asc" } })) {
      ids.push(e.id);
      await appendTurn(db.prisma, e.id, { index: 0, role: "simulator", content: "the task" });
      await appendTurn(db.prisma, e.id, {
        index: 1,
        role: "agent",
        content: `Should f(${e.id}) round?`,
        rawOutput: `OUTPUT: Should f(${e.id}) round?`,
        prompt: [{ role: "user", content: "Write f." }],
      });
    }
  }, 120_000);

  afterAll(async () => {
    delete process.env.COLBENCH_LIVE_CRITIC;
    delete process.env.COLBENCH_LIVE_POLICY;
    await server?.close();
  });

  it(
    "scores through the servers given to serve, else the run's lineage, equal to what candidates and rank store",
    { timeout: 120_000 },
    async () => {
      const [first, second] = ids as [number, number];
      given("ask-then-answer", "logprobs");
      const response = await call("POST", first, agentSeat(first), { turns: [1] });
      const text = await response.text();
      expect(response.status, text).toBe(200);
      const body = JSON.parse(text) as { served: unknown; advantages: Array<Record<string, unknown>> };
      expect(body.served).toEqual({ critic: "ask-then-answer", policy: "logprobs" });
      expect(body.advantages[0]).toMatchObject({
        turn: 1,
        device: "servers: named by colbench serve",
        criticModel: "ask-then-answer",
        policyModel: "logprobs",
      });
      expect(Object.keys(body.advantages[0]!).sort()).toEqual(KEYS);
      expect(leaks(text)).toEqual([]);

      // Not given, and the run not yet ranked: nothing names a server.
      delete process.env.COLBENCH_LIVE_CRITIC;
      delete process.env.COLBENCH_LIVE_POLICY;
      const unnamed = await call("POST", second, agentSeat(second), { turns: [1] });
      expect(unnamed.status).toBe(409);
      expect(((await unnamed.json()) as { error: string }).error).toContain("run practice-servers has not been ranked");

      // `colbench candidates` then `colbench rank` through the same servers, as the CLI calls them.
      await db.prisma.episode.updateMany({ where: { id: { in: [first, second] } }, data: { status: "done" } });
      const store = storeFor(db.prisma);
      const template = chatTemplate("llama3");
      await sampleCandidates(store, runId, client("logprobs"), { n: 1, template });
      await rankCandidates(store, runId, client("ask-then-answer"), { template });

      // Now the run's lineage names them: rank's critic, and the sampling's policy.
      const named = await call("POST", second, agentSeat(second), { turns: [1] });
      const namedText = await named.text();
      expect(named.status, namedText).toBe(200);
      const namedBody = JSON.parse(namedText) as typeof body;
      expect(namedBody.advantages[0]!.device).toMatch(
        /^servers: named by run practice-servers's rank record \d+ and candidates record \d+$/,
      );
      expect(leaks(namedText)).toEqual([]);

      for (const [id, live] of [
        [first, body.advantages[0]!],
        [second, namedBody.advantages[0]!],
      ] as const) {
        const stored = await db.prisma.candidate.findFirstOrThrow({
          where: { index: 0, turn: { episodeId: id, index: 1 } },
        });
        expect(stored.criticModel).toBe(live.criticModel);
        expect(stored.policyModel).toBe(live.policyModel);
        expect(Math.abs((live.criticScore as number) - stored.criticScore!)).toBeLessThanOrEqual(1e-5);
        expect(Math.abs((live.policyMean as number) - stored.policyMean)).toBeLessThanOrEqual(1e-5);
        expect(Math.abs((live.advantage as number) - stored.advantage!)).toBeLessThanOrEqual(1e-5);
        expect(live.advantage).not.toBe(0);
      }
    },
  );

  it("refuses a server whose log-probs are partial or not log-probs, keeps nothing, and tells a seat no prompt", async () => {
    const third = ids[2]!;
    for (const [critic, policy, role] of [
      ["truncated-prompt", "logprobs", "critic"],
      ["null-logprobs", "logprobs", "critic"],
      ["ask-then-answer", "positive-logprob", "policy"],
    ] as const) {
      given(critic, policy);
      const model = role === "critic" ? critic : policy;
      const seen = await call("POST", third, researcher, { turns: [1] });
      expect(seen.status).toBe(502);
      const reason = ((await seen.json()) as { error: string }).error;
      expect(reason).toContain(`the ${role} server ${model} was refused, nothing was kept`);
      expect(reason).toContain("incomplete answer");
      const seat = await call("POST", third, agentSeat(third), { turns: [1] });
      expect(seat.status).toBe(502);
      const plain = await seat.text();
      expect(plain).toContain(`the ${role} server ${model} gave an answer that does not cover what was asked`);
      expect(leaks(plain)).toEqual([]);
    }
    expect(await db.prisma.browserScoring.count({ where: { episodeId: third } })).toBe(0);
    expect(((await (await call("GET", third, researcher)).json()) as { advantages: unknown[] }).advantages).toEqual([]);
  });
});
