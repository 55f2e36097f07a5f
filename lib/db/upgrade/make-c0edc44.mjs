// Makes the oldest fixture with the code of commit c0edc44 (the first release: schema 20261122055952_init).
// Run inside a checkout of that commit (see README.md here):
//   COLBENCH_DATA=/tmp/fx npx tsx make-c0edc44.mjs
// That release's CLI had `import` and `db migrate` only, and no runner yet: tasks go in through its
// own import, and one run with episodes and turns through its own Prisma client, shaped as its
// schema says a run is stored.
import path from "node:path";

const root = process.cwd();
const { openDatabase } = await import(path.join(root, "lib/db/open.ts"));
const { seedSamplesIfEmpty } = await import(path.join(root, "lib/store/seed.ts"));
const db = await openDatabase({ pgliteDir: path.join(process.env.COLBENCH_DATA, "db") });
const prisma = db.prisma;
await seedSamplesIfEmpty(prisma);
const tasks = await prisma.task.findMany({ where: { benchmark: "backend" }, orderBy: { id: "asc" }, take: 3 });
const run = await prisma.run.create({
  data: {
    name: "fixture-run",
    benchmark: "backend",
    status: "done",
    config: { agent: "scripted", simulator: "scripted", bestOf: 1 },
  },
});
for (const [i, task] of tasks.entries()) {
  const episode = await prisma.episode.create({
    data: {
      runId: run.id,
      taskId: task.id,
      status: "done",
      answer: `def f():\n    return ${i}`,
      reward: i === 0 ? 1 : 0.5,
      details: { tests: [{ name: "test1", passed: i === 0 }] },
      startedAt: new Date("2026-11-22T06:10:00Z"),
      endedAt: new Date("2026-11-22T06:11:00Z"),
    },
  });
  await prisma.turn.create({
    data: { episodeId: episode.id, index: 0, role: "simulator", content: task.problemDescription },
  });
  await prisma.turn.create({
    data: {
      episodeId: episode.id,
      index: 1,
      role: "agent",
      content: "What should it return?",
      rawOutput: "THOUGHT: ask\nOUTPUT: What should it return?",
      prompt: [{ role: "user", content: task.problemDescription }],
      usage: { promptTokens: 40 + i, completionTokens: 7 },
    },
  });
  await prisma.turn.create({
    data: {
      episodeId: episode.id,
      index: 2,
      role: "simulator",
      content: `It returns ${i}.`,
      usage: { promptTokens: 60, completionTokens: 4 },
    },
  });
  await prisma.turn.create({
    data: {
      episodeId: episode.id,
      index: 3,
      role: "agent",
      content: `I WANT TO ANSWER:\ndef f():\n    return ${i}`,
      usage: { promptTokens: 80, completionTokens: 12 },
    },
  });
}
console.log(
  JSON.stringify({
    tasks: await prisma.task.count(),
    runs: await prisma.run.count(),
    episodes: await prisma.episode.count(),
    turns: await prisma.turn.count(),
  }),
);
await db.close();
