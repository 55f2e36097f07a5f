import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/db/open";
import { setDatabase } from "@/lib/db";
import { decide } from "@/lib/access/policy";
import { VIEWER_HEADER, type Viewer } from "@/lib/access/viewer";
import { PATCH } from "./route";

// PATCH /api/runs/ID as the studio's pages call it: who may change a run (the gate's table and the
// route's own check), what a bad body is told, and that a refused edit changes nothing.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colbench-run-edit-route-"));
let db: Database;
const ids: Record<string, number> = {};

const researcher: Viewer = { kind: "user", id: 1, name: "r", role: "researcher" };
const annotator: Viewer = { kind: "user", id: 2, name: "a", role: "annotator" };
const seat: Viewer = { kind: "seats", seats: [{ episodeId: 1, seat: "agent" }] };

function patch(id: number | string, body: unknown, viewer: Viewer | null = researcher) {
  const request = new Request(`http://studio/api/runs/${id}`, {
    method: "PATCH",
    headers: { "content-type": "application/json", ...(viewer ? { [VIEWER_HEADER]: JSON.stringify(viewer) } : {}) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return PATCH(request, { params: Promise.resolve({ id: String(id) }) });
}

async function answer(response: Response) {
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  db = await openDatabase({ pgliteDir: path.join(dir, "db"), url: "" });
  setDatabase(db);
  const config = {
    benchmark: "backend",
    agent: { baseUrl: "http://m/v1", model: "m" },
    simulator: { baseUrl: "http://m/v1", model: "s" },
  };
  for (const name of ["first", "second"])
    ids[name] = (await db.prisma.run.create({ data: { name, benchmark: "backend", config } })).id;
});
afterAll(async () => {
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("PATCH /api/runs/ID", () => {
  it("renames, notes and tags a run for a researcher and answers what is stored", async () => {
    expect(await answer(await patch(ids.first!, { name: " first run ", notes: "a\r\nb", tags: ["B", "a"] }))).toEqual({
      status: 200,
      body: { id: ids.first, name: "first run", notes: "a\nb", tags: ["a", "b"] },
    });
    expect((await answer(await patch(ids.first!, { tags: { add: ["c"], remove: ["a"] } }))).body.tags).toEqual([
      "b",
      "c",
    ]);
    expect((await answer(await patch(ids.first!, { tags: [] }))).body.tags).toEqual([]);
  });

  it("is closed to annotators, seat links and requests that did not pass the gate", async () => {
    // The gate's table sends them away before the route runs...
    expect(decide(annotator, "PATCH", `/api/runs/${ids.first}`, new URLSearchParams())).toBe("deny");
    expect(decide(seat, "PATCH", `/api/runs/${ids.first}`, new URLSearchParams())).toBe("deny");
    expect(decide(researcher, "PATCH", `/api/runs/${ids.first}`, new URLSearchParams())).toBe("allow");
    // ...and the route refuses them itself, whatever reached it.
    for (const viewer of [annotator, seat, null]) {
      const refused = await answer(await patch(ids.second!, { name: "taken over" }, viewer));
      expect(refused.status, JSON.stringify(viewer)).toBe(403);
    }
    expect((await db.prisma.run.findUniqueOrThrow({ where: { id: ids.second! } })).name).toBe("second");
  });

  it("says what is wrong with a bad body, a bad value, a taken name and a missing run", async () => {
    const cases: Array<[number | string, unknown, number, string]> = [
      [ids.second!, { name: "" }, 400, "name: must not be empty"],
      [ids.second!, { name: "2024" }, 400, "all digits"],
      [ids.second!, { name: "first run" }, 409, `name: another run (${ids.first}) is named "first run"`],
      [ids.second!, { tags: { add: ["x".repeat(33)] } }, 400, "at most 32 characters"],
      [ids.second!, { tags: ["fine", "not fine"] }, 400, 'tag "not fine": only lowercase letters'],
      [ids.second!, { notes: "\u0000" }, 400, "notes: control characters"],
      [ids.second!, { colour: "red" }, 400, "body: Unrecognized key"],
      [ids.second!, { name: 7 }, 400, "body.name: Invalid input"],
      [ids.second!, "not json", 400, ""],
      [999_999, { name: "anything" }, 404, "no run 999999"],
      ["abc", { name: "anything" }, 404, "no run abc"],
    ];
    for (const [id, body, status, said] of cases) {
      const got = await answer(await patch(id, body));
      expect(got.status, JSON.stringify(body)).toBe(status);
      expect(String(got.body.error), JSON.stringify(body)).toContain(said);
    }
  });

  it("changes nothing when one part of an edit is refused", async () => {
    const refused = await answer(await patch(ids.second!, { name: "second renamed", tags: ["ok", "NOT OK!"] }));
    expect(refused.status).toBe(400);
    const row = await db.prisma.run.findUniqueOrThrow({ where: { id: ids.second! } });
    expect({ name: row.name, tags: row.tags }).toEqual({ name: "second", tags: [] });
  });
});
