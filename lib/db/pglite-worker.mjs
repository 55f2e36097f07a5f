// The database thread's entry: plain JavaScript, so that it starts the same whether the owner runs
// under tsx (the CLI, the studio), under Vitest, or anything else; it compiles the TypeScript itself.
import { tsImport } from "tsx/esm/api";

await tsImport("./pglite-worker.ts", import.meta.url);
