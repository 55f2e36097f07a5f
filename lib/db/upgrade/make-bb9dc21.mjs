// Makes the fixture of the schema before the newest migration with the code of commit bb9dc21
// (schema 20261125193157_episode_turn_totals, as that commit wrote it: statement triggers).
// Run inside a checkout of that commit (see README.md here):
//   COLBENCH_DATA=/tmp/fx npx tsx make-bb9dc21.mjs
// Everything goes through that release's own store: sample tasks, two finished runs (its
// labelling test helper), people, a labelling queue, and labels given at its desk.
import path from "node:path";

const root = process.cwd();
const load = (file) => import(path.join(root, file));
const { openDatabase } = await load("lib/db/open.ts");
const { storeFor } = await load("lib/store/index.ts");
const { addUser } = await load("lib/access/users.ts");
const { createQueue } = await load("lib/label/build.ts");
const { makeRunPair } = await load("lib/label/testing/run-pair.ts");
const { openDesk, nextPair, label } = await load("lib/label/desk.ts");
const { userViewer } = await load("lib/access/viewer.ts");

const db = await openDatabase({ pgliteDir: path.join(process.env.COLBENCH_DATA, "db") });
const store = storeFor(db.prisma);
await store.tasks.seedSamplesIfEmpty();
const runs = await makeRunPair(store, { tasks: 4, prefix: "fixture" });
await addUser(store, "ada", "admin");
await addUser(store, "ann", "annotator");
await addUser(store, "bea", "annotator");
const queue = await createQueue(store, {
  name: "fixture-queue",
  source: { from: "runs", a: runs.a.name, b: runs.b.name },
  overlap: 2,
  members: ["ann", "bea"],
});
for (const user of await store.users.list()) {
  if (user.role !== "annotator") continue;
  const desk = await openDesk(store, userViewer(user), queue.id);
  for (let i = 0; i < 3; i++) {
    const pair = await nextPair(store, desk, []);
    const done = await label(store, desk, {
      itemId: pair.itemId,
      side: i % 2 ? "right" : "left",
      comment: i === 0 ? `${user.name} liked it` : null,
      ms: 1500 + i,
      holding: [],
    });
    if (!done.ok) throw new Error(done.error);
  }
}
const p = db.prisma;
console.log(
  JSON.stringify({
    tasks: await p.task.count(),
    runs: await p.run.count(),
    episodes: await p.episode.count(),
    turns: await p.turn.count(),
    users: await p.user.count(),
    labels: await p.label.count(),
  }),
);
await db.close();
