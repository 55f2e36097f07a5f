// Test fixture: a second process that owns a PGlite folder (and serves it to clients), commits rows,
// says so, and then waits to be killed. Used to check ownership, take-over and recovery after kill -9.
import { openDatabase } from "../open";

const [dir, countText] = process.argv.slice(2);
const count = Number(countText ?? 5);
const db = await openDatabase({ pgliteDir: dir, command: "hold-db fixture" });
for (let i = 0; i < count; i++) {
  await db.prisma.task.create({
    data: {
      benchmark: "backend",
      problemDescription: `committed before kill ${i}`,
      groundTruth: "def f():\n    return 1",
      testCases: [{ name: "t", expression: "f()" }],
      source: "hold-db",
      sourceIndex: i + 1,
      contentHash: `hold-${process.pid}-${i}`,
    },
  });
}
process.stdout.write(`committed ${count}\n`);
setInterval(() => {}, 1 << 30);
