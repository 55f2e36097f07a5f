import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

// The zygote's fork and child set-up in C (workers/python/native/sandbox_fork.c), built once per
// version of that file with the system C compiler and loaded by each worker. Without a compiler
// the workers do the same steps in Python: same isolation, ~60 more copy-on-write faults per child.

const run = promisify(execFile);

export interface NativeLibrary {
  /** The built shared library, or null where it could not be built. */
  path: string | null;
  /** Why not, when path is null. */
  note: string;
}

const builds = new Map<string, Promise<NativeLibrary>>();

/** Builds (or finds already built) the library for the worker at `workerPath`. */
export function sandboxForkLibrary(workerPath: string): Promise<NativeLibrary> {
  const source = path.join(path.dirname(workerPath), "native", "sandbox_fork.c");
  let build = builds.get(source);
  if (!build) {
    build = buildLibrary(source);
    builds.set(source, build);
  }
  return build;
}

async function buildLibrary(source: string): Promise<NativeLibrary> {
  if (process.platform !== "linux") return { path: null, note: "the C set-up is Linux only" };
  let text: Buffer;
  try {
    text = readFileSync(source);
  } catch {
    return { path: null, note: `${source} is missing` };
  }
  const compiler = process.env.CC || "cc";
  const version = createHash("sha256").update(text).update(compiler).digest("hex").slice(0, 16);
  const name = `sandbox_fork-${version}.so`;
  // Beside the source where that is writable (a checkout), else in the temp dir.
  const dirs = [path.join(path.dirname(source), "build"), path.join(os.tmpdir(), "colbench-native")];
  for (const dir of dirs) {
    const target = path.join(dir, name);
    if (existsSync(target)) return { path: target, note: "" };
  }
  let lastError = "";
  for (const dir of dirs) {
    const target = path.join(dir, name);
    // Built under a name of its own, then renamed: other processes may be building it too.
    const partial = `${target}.${process.pid}.partial`;
    try {
      mkdirSync(dir, { recursive: true });
      await run(compiler, ["-O2", "-Wall", "-shared", "-fPIC", "-o", partial, source], { timeout: 60_000 });
      renameSync(partial, target);
      return { path: target, note: "" };
    } catch (error) {
      rmSync(partial, { force: true });
      const err = error as NodeJS.ErrnoException & { stderr?: string };
      lastError = err.code === "ENOENT" ? `no C compiler (${compiler})` : (err.stderr || err.message).trim().split("\n")[0]!;
      if (err.code === "ENOENT") break;
    }
  }
  return { path: null, note: lastError };
}
