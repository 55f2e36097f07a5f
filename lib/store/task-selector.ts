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
  /** The studio ids it names (ids=), each a range; single ids are ranges of one. */
  ids: Array<{ gte: number; lte: number }>;
  /** The selector as written, clauses trimmed, for messages that suggest a corrected one. */
  text: string;
}

/** Where a list key's numbers start: lines from 1, index from 0, studio ids from 1. */
function range(key: ListKey, part: string): { gte: number; lte: number } {
  const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
  if (!m) throw new TaskSelectorError(`"${part}" in ${key}= is not a number or a range like 1-50`);
  const from = Number(m[1]);
  const to = m[2] === undefined ? from : Number(m[2]);
  // Swapping a reversed range quietly would hide a typo (5-2 for 5-20); say it instead.
  if (from > to) throw new TaskSelectorError(`"${part}" in ${key}= is a reversed range: write ${key}=${to}-${from}`);
  if (from === 0 && key === "lines") {
    // Someone writing line 0 counts from 0, as index= does: offer both readings, each exact.
    throw new TaskSelectorError(
      `lines= count from 1, so there is no line 0: write index=${part.trim()} to count from 0 (the same tasks as lines=${from + 1}-${to + 1}), or lines=1-${Math.max(1, to)}`,
    );
  }
  if (from === 0 && key === "ids")
    throw new TaskSelectorError(
      `studio ids count from 1 (the Tasks page's #N), so there is no #0: write ids=1${to > 1 ? `-${to}` : ""}`,
    );
  return { gte: from, lte: to };
}

export function parseSelector(text: string): ParsedSelector {
  const where: Prisma.TaskWhereInput[] = [];
  const lists = new Map<ListKey, Array<{ gte: number; lte: number }>>();
  const splits: string[] = [];
  const sources: string[] = [];
  let last: ListKey | null = null;
  for (const clause of text
    .split(",")
    .map((c) => c.trim())
    .filter(Boolean)) {
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
      OR: ranges.map((r) =>
        key === "ids"
          ? { id: r }
          : key === "lines"
            ? { sourceIndex: r }
            : { sourceIndex: { gte: r.gte + 1, lte: r.lte + 1 } },
      ),
    });
  }
  const written = text
    .split(",")
    .map((c) => c.trim())
    .filter(Boolean)
    .join(",");
  return {
    where: { AND: where },
    splits,
    sources,
    byPosition: lists.has("lines") || lists.has("index"),
    ids: lists.get("ids") ?? [],
    text: written,
  };
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
  // Before the limit: a limit that stops inside the first file would hide that a second one holds the positions too.
  if (parsed.byPosition && parsed.sources.length === 0) await refuseSeveralFiles(prisma, benchmark, parsed, where);
  const rows = await prisma.task.findMany({
    where,
    // By position: in the file's own order (lines), file by file.
    orderBy: parsed.byPosition ? [{ source: "asc" }, { sourceIndex: "asc" }] : { id: "asc" },
    take: limit,
    select: { id: true },
  });
  if (rows.length === 0) await explainEmpty(prisma, benchmark, parsed);
  await refuseOtherBenchmarks(prisma, benchmark, parsed);
  return rows.map((row) => row.id);
}

/**
 * A position means one file's line: several files holding it would mix tasks unasked. Every studio
 * holds the seeded sample file beside any imported one, so the refusal names a split (when the files'
 * splits tell them apart) or a file to add, as a selector to write.
 */
async function refuseSeveralFiles(
  prisma: PrismaClient,
  benchmark: Benchmark,
  parsed: ParsedSelector,
  where: Prisma.TaskWhereInput,
): Promise<void> {
  const groups = await prisma.task.groupBy({
    by: ["source", "split"],
    where,
    _count: { _all: true },
    orderBy: [{ source: "asc" }, { split: "asc" }],
  });
  const files = [...new Set(groups.map((g) => g.source))];
  if (files.length <= 1) return;
  const splitsOf = (source: string) => groups.filter((g) => g.source === source).map((g) => g.split);
  // A split picks one file when that file is the only one holding the split.
  const bySplit = parsed.splits.length
    ? []
    : files.flatMap((f) => {
        const own = splitsOf(f);
        return own.length === 1 && groups.filter((g) => g.split === own[0]).length === 1
          ? [{ file: f, split: own[0]! }]
          : [];
      });
  const what = `lines=/index= are positions in one file, and ${files.length} ${benchmark} files hold them (${files.join(", ")})`;
  if (bySplit.length) {
    // The benchmark's own split first: index= counts positions in the split, as the paper's code loops over it.
    const pick = bySplit.find((b) => b.split === "test") ?? bySplit.find((b) => b.split !== "sample") ?? bySplit[0]!;
    const each = bySplit.map((b) => `split=${b.split} is ${b.file}`).join(", ");
    throw new TaskSelectorError(
      `${what}: add split= or source=NAME (${each}), e.g. split=${pick.split},${parsed.text}`,
    );
  }
  throw new TaskSelectorError(`${what}: add source=NAME, e.g. source=${files[0]},${parsed.text}`);
}

/** Ids named one by one that are another benchmark's tasks: said, rather than left out without a word. */
async function refuseOtherBenchmarks(
  prisma: PrismaClient,
  benchmark: Benchmark,
  parsed: ParsedSelector,
): Promise<void> {
  const singles = parsed.ids.filter((r) => r.gte === r.lte).map((r) => r.gte);
  if (!singles.length) return;
  const others = await prisma.task.findMany({
    where: { id: { in: singles }, benchmark: { not: benchmark } },
    select: { id: true, benchmark: true },
    orderBy: { id: "asc" },
  });
  if (others.length) throw new TaskSelectorError(otherBenchmarkMessage(benchmark, others));
}

function otherBenchmarkMessage(benchmark: Benchmark, others: Array<{ id: number; benchmark: string }>): string {
  const names = [...new Set(others.map((t) => t.benchmark))];
  const ids = others.map((t) => `#${t.id}`);
  const list = ids.length === 1 ? ids[0]! : `${ids.slice(0, -1).join(", ")} and ${ids.at(-1)}`;
  const theirs =
    names.length === 1
      ? `${ids.length === 1 ? "a" : ""} ${names[0]} task${ids.length === 1 ? "" : "s"}`.trim()
      : `tasks of ${names.join(" and ")}`;
  return `${list} ${ids.length === 1 ? "is" : "are"} ${theirs}, not ${benchmark}: leave ${ids.length === 1 ? "it" : "them"} out, or make the run a ${names.join(" or ")} run`;
}

/** Why a selector picks nothing: a split or file that does not exist (listing those that do), or nothing left after the rest. */
async function explainEmpty(prisma: PrismaClient, benchmark: Benchmark, parsed: ParsedSelector): Promise<never> {
  const [bySplit, bySource] = await Promise.all([
    prisma.task.groupBy({ by: ["split"], where: { benchmark }, _count: { _all: true }, orderBy: { split: "asc" } }),
    prisma.task.groupBy({ by: ["source"], where: { benchmark }, _count: { _all: true }, orderBy: { source: "asc" } }),
  ]);
  if (bySplit.length === 0)
    throw new TaskSelectorError(
      `there are no ${benchmark} tasks yet: import some (the Tasks page, or \`colbench import\`)`,
    );
  const list = (groups: Array<{ _count: { _all: number } } & Record<string, unknown>>, key: string) =>
    groups.map((g) => `${g[key] as string} (${g._count._all})`).join(", ");
  for (const split of parsed.splits) {
    if (!bySplit.some((g) => g.split === split))
      throw new TaskSelectorError(
        `no ${benchmark} task has split "${split}"; the splits that exist: ${list(bySplit, "split")}`,
      );
  }
  for (const source of parsed.sources) {
    if (!bySource.some((g) => g.source === source))
      throw new TaskSelectorError(
        `no ${benchmark} task comes from "${source}"; the files that exist: ${list(bySource, "source")}`,
      );
  }
  if (parsed.ids.length) {
    // Studio ids run across benchmarks: the ids asked for may all be another benchmark's.
    const others = await prisma.task.findMany({
      where: { benchmark: { not: benchmark }, OR: parsed.ids.map((r) => ({ id: r })) },
      select: { id: true, benchmark: true },
      orderBy: { id: "asc" },
      take: 5,
    });
    if (others.length) throw new TaskSelectorError(otherBenchmarkMessage(benchmark, others));
  }
  throw new TaskSelectorError(`selects no ${benchmark} task (the ${benchmark} splits: ${list(bySplit, "split")})`);
}
