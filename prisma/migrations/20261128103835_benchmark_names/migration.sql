-- A benchmark is a name in lib/benchmarks' registry (issue 47), checked by the store on every write,
-- rather than a PostgreSQL enum: a new benchmark then needs no migration. Every row keeps its name;
-- changing a column's type in place rebuilds the indexes on it (Task's unique key and listing index).

-- AlterTable
ALTER TABLE "Task" ALTER COLUMN "benchmark" TYPE TEXT USING "benchmark"::text;

-- AlterTable
ALTER TABLE "Run" ALTER COLUMN "benchmark" TYPE TEXT USING "benchmark"::text;

-- AlterTable
ALTER TABLE "Queue" ALTER COLUMN "benchmark" TYPE TEXT USING "benchmark"::text;

-- DropEnum
DROP TYPE "Benchmark";
