import type { PrismaClient, Prisma } from "../db/generated/client";
import type { Benchmark } from "../benchmarks";

/**
 * Which tasks a run covers. Clauses joined by commas, all must hold:
 *   all | split=test | source=NAME | lines=1-50 | index=0-49 | ids=1-50
 * `lines` and `index` are the benchmark's own positions: a task's line in the file it was imported
 * from (1-based; for the official files, its place in the split) and the same counted from 0, as the
 * paper's code loops over a split. `ids` are the studio's own task ids (the Tasks page's #N).
 * Numbers and ranges after a key go on with commas or `+`: `ids=21,25,30-40` = `ids=21+25+30-40`.
 * e.g. `split=test,index=0-99`, `source=backend_test.jsonl,lines=1-100`.
 * Messages name no flag: the CLI says `--tasks`, the New run form "Tasks".
 */
export class TaskSelectorError extends Error {}

const LIST_KEYS = ["ids", "lines", "index"] as const;
type ListKey = (typeof LIST_KEYS)[number];
const KEYS = "all, split=S, source=NAME, lines=A-B, index=A-B or ids=A-B";

export interface ParsedSelector {
  where: Prisma.TaskWhereInput;
  splits: string[];
  sources: string[];
  /** Whether it picks by position in a file (lines or index). */
  byPosition: boolean;
}

function range(key: ListKey, part: string): { gte: number; lte: number } {
  const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
  if (!m) throw new TaskSelectorError(`"${part}" in ${key}= is not a number or a range like 1-50`);
  const from = Number(m[1]);
  const to = m[2] === undefined ? from : Number(m[2]);
  return { gte: Math.min(from, to), lte: Math.max(from, to) };
}

export function parseSelector(text: string): ParsedSelector {
  const where: Prisma.TaskWhereInput[] = [];
  const lists = new Map<ListKey, Array<{ gte: number; lte: number }>>();
  const splits: string[] = [];
  const sources: string[] = [];
  let last: ListKey | null = null;
  for (const clause of text.split(",").map((c) => c.trim()).filter(Boolean)) {
    if (clause === "all") {
      last = null;
      continue;
    }
    const eq = clause.indexOf("=");
    if (eq < 0) {
      // A number or range after ids=/lines=/index= goes on with that key's list.
      if (last && /^[\d+-]+$/.test(clause)) {
        for (const part of clause.split("+")) lists.get(last)!.push(range(last, part));
        continue;
      }
      throw new TaskSelectorError(`"${clause}" is not one of ${KEYS}`);
    }
    const key = clause.slice(0, eq).trim();
    const value = clause.slice(eq + 1).trim();
    if (key === "split" || key === "source") {
      if (!value) throw new TaskSelectorError(`${key}= needs a name`);
      (key === "split" ? splits : sources).push(value);
      where.push({ [key]: value });
      last = null;
    } else if ((LIST_KEYS as readonly string[]).includes(key)) {
      last = key as ListKey;
      if (!lists.has(last)) lists.set(last, []);
      for (const part of value.split("+")) lists.get(last)!.push(range(last, part));
    } else {
      throw new TaskSelectorError(`unknown key "${key}" in "${clause}": use ${KEYS}`);
    }
  }
  for (const [key, ranges] of lists) {
    where.push({
      OR: ranges.map((r) => (key === "ids" ? { id: r } : key === "lines" ? { sourceIndex: r } : { sourceIndex: { gte: r.gte + 1, lte: r.lte + 1 } })),
    });
  }
  return { where: { AND: where }, splits, sources, byPosition: lists.has("lines") || lists.has("index") };
}

/** The Prisma filter of a selector (see `parseSelector`). */
export function parseTaskSelector(text: string): Prisma.TaskWhereInput {
  return parseSelector(text).where;
}

export async function resolveTaskSelector(
  prisma: PrismaClient,
  benchmark: Benchmark,
  selector: string,
  limit?: number,
): Promise<number[]> {
  const parsed = parseSelector(selector);
  const where = { AND: [{ benchmark }, parsed.where] };
  const rows = await prisma.task.findMany({
    where,
    // By position: in the file's own order (lines), file by file.
    orderBy: parsed.byPosition ? [{ source: "asc" }, { sourceIndex: "asc" }] : { id: "asc" },
    take: limit,
    select: { id: true, source: true },
  });
  if (rows.length === 0) await explainEmpty(prisma, benchmark, parsed);
  if (parsed.byPosition && parsed.sources.length === 0) {
    // A position means one file's line: several files holding that line would mix tasks unasked.
    const files = [...new Set(rows.map((r) => r.source))];
    if (files.length > 1) {
      throw new TaskSelectorError(`lines=/index= are positions in one file, and ${files.length} ${benchmark} files hold them (${files.join(", ")}): add source=NAME`);
    }
  }
  return rows.map((row) => row.id);
}

/** Why a selector picks nothing: a split or file that does not exist (listing those that do), or nothing left after the rest. */
async function explainEmpty(prisma: PrismaClient, benchmark: Benchmark, parsed: ParsedSelector): Promise<never> {
  const [bySplit, bySource] = await Promise.all([
    prisma.task.groupBy({ by: ["split"], where: { benchmark }, _count: { _all: true }, orderBy: { split: "asc" } }),
    prisma.task.groupBy({ by: ["source"], where: { benchmark }, _count: { _all: true }, orderBy: { source: "asc" } }),
  ]);
  if (bySplit.length === 0) throw new TaskSelectorError(`there are no ${benchmark} tasks yet: import some (the Tasks page, or \`colbench import\`)`);
  const list = (groups: Array<{ _count: { _all: number } } & Record<string, unknown>>, key: string) => groups.map((g) => `${g[key] as string} (${g._count._all})`).join(", ");
  for (const split of parsed.splits) {
    if (!bySplit.some((g) => g.split === split)) throw new TaskSelectorError(`no ${benchmark} task has split "${split}"; the splits that exist: ${list(bySplit, "split")}`);
  }
  for (const source of parsed.sources) {
    if (!bySource.some((g) => g.source === source)) throw new TaskSelectorError(`no ${benchmark} task comes from "${source}"; the files that exist: ${list(bySource, "source")}`);
  }
  throw new TaskSelectorError(`selects no ${benchmark} task (the ${benchmark} splits: ${list(bySplit, "split")})`);
}
