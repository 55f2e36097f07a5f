import type { PrismaClient } from "../db/generated/client";
import { runWhere, type RunFilter } from "./runs";

// What a researcher writes on a run: its name, notes and tags. The rules live here, at the one door
// every writer passes (the run page's routes and `colbench runs rename|note|tag`), so the CLI and the
// studio refuse the same input with the same words.

export const RUN_NAME_MAX = 120;
export const RUN_NOTES_MAX = 10_000;
export const RUN_TAG_MAX = 32;
export const RUN_TAGS_MAX = 20;

// Letters and digits of any script, then also spaces and the punctuation generated names use. No
// slash, quote or control character: names go into file names (exports) and shell commands.
const NAME_CHARS = /^[\p{L}\p{N}][\p{L}\p{N} ._:+@()#-]*$/u;
// Tags are words in addresses (`/runs?tag=x`) and on the command line: lowercase, digits, . _ -.
const TAG_CHARS = /^[a-z0-9][a-z0-9._-]*$/;

/** Why a run's name, notes or tags were refused: bad input, a name another run has, or no such run. */
export class RunEditError extends Error {
  constructor(
    message: string,
    readonly reason: "invalid" | "taken" | "missing",
  ) {
    super(message);
  }
}

/** A run's name as it will be stored (trimmed), or the error saying what is wrong with it. */
export function checkRunName(input: string): string {
  const name = input.trim();
  if (!name) throw new RunEditError("name: must not be empty", "invalid");
  if (name.length > RUN_NAME_MAX)
    throw new RunEditError(`name: at most ${RUN_NAME_MAX} characters (this one has ${name.length})`, "invalid");
  // findRun reads an all-digit text as an id, so such a name could never be found by name.
  if (/^\d+$/.test(name)) throw new RunEditError(`name: "${name}" is all digits, which reads as a run's id`, "invalid");
  if (!NAME_CHARS.test(name)) {
    const odd = [...name].find((c) => !/[\p{L}\p{N} ._:+@()#-]/u.test(c)) ?? name[0]!;
    throw new RunEditError(
      `name: ${JSON.stringify(odd)} is not allowed (letters, digits, spaces and . _ - : + @ ( ) #, starting with a letter or digit)`,
      "invalid",
    );
  }
  return name;
}

/** A tag as it will be stored (trimmed, lowercase), or the error naming it. */
export function checkRunTag(input: string): string {
  const tag = input.trim().toLowerCase();
  if (!tag) throw new RunEditError("tag: must not be empty", "invalid");
  if (tag.length > RUN_TAG_MAX)
    throw new RunEditError(
      `tag "${tag.slice(0, 40)}${tag.length > 40 ? "…" : ""}": at most ${RUN_TAG_MAX} characters (it has ${tag.length})`,
      "invalid",
    );
  if (!TAG_CHARS.test(tag))
    throw new RunEditError(
      `tag "${tag}": only lowercase letters, digits and . _ - are allowed, starting with a letter or digit`,
      "invalid",
    );
  return tag;
}

/** A run's notes as they will be stored (line ends made \n, outer blank space trimmed). */
export function checkRunNotes(input: string): string {
  const notes = input.replace(/\r\n?/g, "\n").trim();
  if (notes.length > RUN_NOTES_MAX)
    throw new RunEditError(`notes: at most ${RUN_NOTES_MAX} characters (these have ${notes.length})`, "invalid");
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(notes))
    throw new RunEditError("notes: control characters are not allowed (tabs and line breaks are)", "invalid");
  return notes;
}

function missing(runId: number): RunEditError {
  return new RunEditError(`no run ${runId}`, "missing");
}

/** Renames a run; a name another run has is refused (names are unique), as is the run's own name unchanged. */
export async function renameRun(prisma: PrismaClient, runId: number, input: string): Promise<{ name: string }> {
  const name = checkRunName(input);
  const other = await prisma.run.findUnique({ where: { name }, select: { id: true } });
  if (other && other.id !== runId)
    throw new RunEditError(`name: another run (${other.id}) is named "${name}"`, "taken");
  try {
    const { count } = await prisma.run.updateMany({ where: { id: runId }, data: { name } });
    if (count === 0) throw missing(runId);
  } catch (error) {
    // Another rename took the name between the look-up and the update.
    if ((error as { code?: string }).code === "P2002")
      throw new RunEditError(`name: another run is named "${name}"`, "taken");
    throw error;
  }
  return { name };
}

export async function setRunNotes(prisma: PrismaClient, runId: number, input: string): Promise<{ notes: string }> {
  const notes = checkRunNotes(input);
  const { count } = await prisma.run.updateMany({ where: { id: runId }, data: { notes } });
  if (count === 0) throw missing(runId);
  return { notes };
}

/**
 * Adds and removes tags (`set` replaces them all). The run's row is locked while its new set is
 * made, so two people tagging at once both keep theirs; the set is stored sorted, without repeats.
 */
export async function changeRunTags(
  prisma: PrismaClient,
  runId: number,
  change: { add?: string[]; remove?: string[]; set?: string[] },
): Promise<{ tags: string[] }> {
  const add = (change.set ?? change.add ?? []).map(checkRunTag);
  const remove = new Set((change.remove ?? []).map((t) => t.trim().toLowerCase()));
  return prisma.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<Array<{ tags: string[] | null }>>`
      SELECT "tags" FROM "Run" WHERE "id" = ${runId} FOR UPDATE`;
    if (!row) throw missing(runId);
    const kept = new Set([...(change.set ? [] : (row.tags ?? [])), ...add]);
    const tags = [...kept].filter((t) => !remove.has(t)).sort();
    if (tags.length > RUN_TAGS_MAX)
      throw new RunEditError(`tags: at most ${RUN_TAGS_MAX} per run (this would make ${tags.length})`, "invalid");
    await tx.run.update({ where: { id: runId }, data: { tags } });
    return { tags };
  });
}

/** Every tag on the runs a list shows, with how many of them carry it, most used first. */
export function tagCounts(runs: Array<{ tags: string[] }>): Array<{ tag: string; runs: number }> {
  const counts = new Map<string, number>();
  for (const run of runs) for (const tag of run.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts].map(([tag, runs]) => ({ tag, runs })).sort((a, b) => b.runs - a.runs || (a.tag < b.tag ? -1 : 1));
}

/** The tags of the runs a list shows (under the same filter, tag aside), with their counts. */
export async function listRunTags(
  prisma: PrismaClient,
  filter: RunFilter = {},
): Promise<Array<{ tag: string; runs: number }>> {
  const rows = await prisma.run.findMany({ where: runWhere({ ...filter, tag: undefined }), select: { tags: true } });
  return tagCounts(rows);
}
