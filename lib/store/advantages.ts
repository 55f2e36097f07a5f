import fs from "node:fs";
import readline from "node:readline";
import { z } from "zod";
import type { PrismaClient } from "../db/generated/client";
import { decodeObjectLine, zodProblems } from "../colbench/jsonl";
import { formatProblem } from "../colbench/tasks";

// Per-turn critic advantages computed outside the studio (e.g. by a SWEET-RL critic in PyTorch),
// attached to the stored agent turns so the replay can chart them.

const advantageLineSchema = z.object({
  episode: z.number().int().positive(),
  turn: z.number().int().min(0),
  advantage: z.number().refine(Number.isFinite, "must be a finite number"),
});

export interface AdvantageImport {
  updated: number;
  problems: string[];
}

/** Reads `{episode, turn, advantage}` lines; bad lines are reported (FILE:LINE: field: problem) and skipped. */
export async function importAdvantages(
  prisma: PrismaClient,
  file: string,
  onProblem?: (message: string) => void,
): Promise<AdvantageImport> {
  const result: AdvantageImport = { updated: 0, problems: [] };
  const report = (line: number, field: string, message: string) => {
    const text = formatProblem(file, line, { field, message });
    result.problems.push(text);
    onProblem?.(text);
  };
  const lines = readline.createInterface({
    input: fs.createReadStream(file, { encoding: "utf8" }),
    crlfDelay: Infinity,
  });
  let lineNumber = 0;
  for await (const text of lines) {
    lineNumber++;
    if (!text.trim()) continue;
    const decoded = decodeObjectLine(text);
    if (!decoded.ok) {
      for (const p of decoded.problems) report(lineNumber, p.field, p.message);
      continue;
    }
    const parsed = advantageLineSchema.safeParse(decoded.record);
    if (!parsed.success) {
      for (const p of zodProblems(parsed.error)) report(lineNumber, p.field, p.message);
      continue;
    }
    const { episode, turn, advantage } = parsed.data;
    const stored = await prisma.turn.findUnique({
      where: { episodeId_index: { episodeId: episode, index: turn } },
      select: { id: true, role: true },
    });
    if (!stored) {
      report(lineNumber, "turn", `episode ${episode} has no turn ${turn}`);
      continue;
    }
    if (stored.role !== "agent") {
      report(
        lineNumber,
        "turn",
        `turn ${turn} of episode ${episode} is the simulator's; advantages belong to agent turns`,
      );
      continue;
    }
    await prisma.turn.update({ where: { id: stored.id }, data: { advantage } });
    result.updated++;
  }
  return result;
}
