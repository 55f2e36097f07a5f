import { spawn } from "node:child_process";
import path from "node:path";
import { projectRoot } from "../lib/paths";

/**
 * The scripted model server in its own process (so its work is not counted as the studio's), with
 * the server's own flags (`--port 0 --tasks FILE …`); resolves once it says where it listens.
 */
export async function spawnScriptedServer(args: string[]): Promise<{ url: string; stop(): void }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(projectRoot, "e2e", "fixtures", "scripted-model-server.ts"), ...args],
    {
      cwd: projectRoot,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const match = /listening (\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`scripted server exited ${code}`)));
  });
  return { url, stop: () => child.kill() };
}
