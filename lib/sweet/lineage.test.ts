import { describe, expect, it } from "vitest";
import {
  describeLineage,
  emptyLineage,
  exportLineage,
  formDefaults,
  modelLineage,
  publicUrl,
  readLineage,
  serverText,
} from "./lineage";

// The records' rules without a database: what a URL keeps, how a record reads back, what the
// panel says and starts its forms with, and which records an export names.

const row = (id: number, step: string, lineage: unknown) => ({
  id,
  step,
  createdAt: new Date("2026-11-28T17:00:00Z"),
  runId: 4,
  runName: "weak",
  lineage,
});

describe("lineage records", () => {
  it("keep a server's address without its user, password, query or fragment", () => {
    expect(publicUrl("http://alice:s3cret@gpu-box:8000/v1/?key=abc#x")).toBe("http://gpu-box:8000/v1");
    expect(modelLineage({ baseUrl: "http://a:b@h:1/v1", model: "m", replicas: ["http://c:d@h:2/v1"] })).toEqual({
      model: "m",
      url: "http://h:1/v1",
      replicas: ["http://h:2/v1"],
    });
    expect(modelLineage({ model: "/models/critic" }, "webgpu")).toEqual({ model: "/models/critic", device: "webgpu" });
  });

  it("read back what they hold of the known fields, and refuse an unknown step", () => {
    expect(readLineage(row(1, "export", {}))).toBeNull();
    const read = readLineage(
      row(2, "candidates", { via: "studio", n: "16", seed: 7, policy: { url: 3, model: "p" }, extra: true }),
    );
    expect(read).toEqual({
      id: 2,
      step: "candidates",
      run: { id: 4, name: "weak" },
      at: "2026-11-28T17:00:00.000Z",
      via: "studio",
      seed: 7,
      policy: { model: "p" },
    });
    expect(readLineage(row(3, "rank", null))).toMatchObject({ via: "cli", step: "rank" });
  });

  it("say who made a step's output and with what", () => {
    const l = readLineage(
      row(5, "turn-pairs", { via: "cli", pairsPerState: 8, seed: 42, pool: "samples", order: "task" }),
    )!;
    expect(describeLineage(l)).toEqual([
      "run weak",
      "8 pairs per turn",
      "seed 42",
      "pool samples",
      "order task",
      "from the CLI 2026-11-28 17:00 UTC",
    ]);
    const rank = readLineage(
      row(6, "rank", {
        via: "queue",
        critic: { url: "http://h/v1", replicas: ["http://g/v1"], model: "c" },
        groundTruth: false,
        sum: true,
      }),
    )!;
    expect(describeLineage(rank)).toContain("critic http://h/v1,http://g/v1#c");
    expect(describeLineage(rank)).toContain("without the final answer");
    expect(describeLineage(rank)).toContain("summed log-probs");
    expect(serverText(rank.critic!)).toBe("http://h/v1,http://g/v1#c");
  });

  it("start the forms at the published scripts' defaults when nothing is recorded", () => {
    expect(formDefaults(emptyLineage())).toEqual({
      pairs: { groundTruth: false },
      candidates: { server: "", n: 16 },
      rank: { server: "", groundTruth: true },
      "turn-pairs": { pairsPerState: 8, seed: 42, pool: "samples", order: "task" },
    });
  });

  it("name, for a turn-pair file, the candidates and ranking its pairs were drawn from", () => {
    const lineage = emptyLineage();
    lineage.candidates = [row(9, "candidates", { n: 4 }), row(7, "candidates", { n: 2 })].map((r) => readLineage(r)!);
    lineage.rank = [readLineage(row(8, "rank", {}))!];
    lineage["turn-pairs"] = [readLineage(row(10, "turn-pairs", { from: { candidates: 7, rank: 8 } }))!];
    const file = exportLineage({ id: 4, name: "weak" }, "openrlhf-policy", "llama3", lineage);
    expect(file.steps.map((s) => s.id)).toEqual([7, 8, 10]);
    expect(exportLineage({ id: 4, name: "weak" }, "official", "llama3", lineage).steps).toEqual([]);
  });
});
