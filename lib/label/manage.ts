import fs from "node:fs";
import path from "node:path";
import type { Store } from "../store";
import type { QueueRow } from "../store/queues";
import { rawLabelLine } from "./exports";

// Running a queue after it is made: close it (nothing more handed out or labelled, every label
// kept), archive it (closed and out of the lists), open it again, change its instructions, take
// people off it, delete it — only once its labels are written to a file and read back whole.

const fail = (field: string, message: string): never => {
  throw new Error(`${field}: ${message}`);
};

export async function setState(store: Store, queue: QueueRow, state: "open" | "closed" | "archived") {
  await store.queues.setState(queue.id, state);
  const now = (await store.queues.find(queue.id))!;
  return { queue: queue.name, state, closedAt: now.closedAt, archivedAt: now.archivedAt };
}

export async function editInstructions(store: Store, queue: QueueRow, instructions: string) {
  if (instructions.length > 100_000) fail("instructions", `at most 100000 characters (got ${instructions.length})`);
  await store.queues.setInstructions(queue.id, instructions);
  return { queue: queue.name, instructions: instructions.length };
}

/** Turns training mode on or off: after a gold pair is labelled, whether it matched and why (lib/label/training.ts). */
export async function setTraining(store: Store, queue: QueueRow, on: boolean) {
  await store.queues.setTraining(queue.id, on);
  return { queue: queue.name, trainingMode: on };
}

/** Lets more people label the queue, by name. */
export async function addMembers(store: Store, queue: QueueRow, names: string[]) {
  const users = await store.users.list();
  const ids = names.map((n) => users.find((u) => u.name === n)?.id ?? fail("members", `no user named "${n}"`));
  return { queue: queue.name, added: await store.queues.addMembers(queue.id, ids) };
}

/** Takes people off the queue by name: their labels stay, the pairs they held go back to others. */
export async function removeMembers(store: Store, queue: QueueRow, names: string[]) {
  const users = await store.users.list();
  const ids = names.map((n) => users.find((u) => u.name === n)?.id ?? fail("members", `no user named "${n}"`));
  const outside = ids.filter((id) => !queue.memberIds.includes(id));
  if (outside.length)
    fail("members", `not members of ${queue.name}: ${names.filter((_, i) => outside.includes(ids[i]!)).join(", ")}`);
  return { queue: queue.name, ...(await store.queues.removeMembers(queue.id, ids)) };
}

/**
 * Writes every label of the queue to `file` (raw JSONL, as `labels export` does), reads the file back
 * and checks that each label is there, and only then deletes the queue with its pairs and labels.
 * The queue is closed first (no label comes in meanwhile); an existing file is never overwritten.
 */
export async function deleteWithExport(store: Store, queue: QueueRow, file: string) {
  if (fs.existsSync(file)) fail("export", `${file} exists already: name a new file for the labels`);
  // Closed first, so no label comes in while they are written.
  await store.queues.setState(queue.id, queue.archivedAt ? "archived" : "closed");
  const labels = await store.labels.ofQueue(queue.id);
  const text = labels.map((l) => JSON.stringify(rawLabelLine(queue, l)) + "\n").join("");
  const fd = fs.openSync(file, "wx");
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  const back = fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { item: number; annotator: string });
  const written = new Set(back.map((l) => `${l.item}:${l.annotator}`));
  const missing = labels.filter((l) => !written.has(`${l.itemId}:${l.user}`));
  if (back.length !== labels.length || missing.length)
    fail("export", `${file} does not hold every label (${back.length} of ${labels.length}); the queue is kept`);
  // A label whose statement began before the close could still land: then nothing is deleted.
  const now = await store.labels.ofQueue(queue.id);
  if (now.length !== labels.length)
    fail(
      "export",
      `labels came in while exporting (${now.length} now, ${labels.length} written); the queue is kept, closed`,
    );
  await store.queues.delete(queue.id);
  return { queue: queue.name, deleted: true, labels: labels.length, file };
}

/**
 * Deletes the queue as `deleteWithExport` does, its labels written first to a new file in `folder`
 * (the studio's data folder's exports/, when the lead deletes from the queue's page): the answer names it.
 */
export async function deleteExportingTo(store: Store, queue: QueueRow, folder: string) {
  fs.mkdirSync(folder, { recursive: true });
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const file = path.join(folder, `queue-${queue.id}-${queue.name.replace(/[^\w.-]+/g, "_")}-${stamp}.labels.jsonl`);
  return deleteWithExport(store, queue, file);
}
