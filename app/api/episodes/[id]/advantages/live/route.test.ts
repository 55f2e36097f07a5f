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
import { GET, POST } from "./route";

// /api/episodes/ID/advantages/live from outside, as each viewer asks it: a person in the agent's seat
// gets numbers (and what computed them) in practice play only, never the critic's prompt or the task's
// final answer; in an evaluation run, or for another episode, nothing.

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
    expect(Object.keys(body.advantages[0]!).sort()).toEqual(
      [
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
      ].sort(),
    );
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
