import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, studioServer } from "./commands/serve";
import { projectRoot } from "../lib/paths";

// Behind a proxy that keeps idle connections, the studio must be the last to close one.

const server = studioServer((_req, res) => res.end("ok"));
afterAll(() => new Promise<void>((done) => server.close(() => done())).finally(() => server.closeAllConnections()));

function keepAliveHeader(port: number): Promise<string | undefined> {
  const agent = new http.Agent({ keepAlive: true });
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: "/", agent }, (res) => {
        res.resume();
        res.on("end", () => {
          agent.destroy();
          resolve(res.headers["keep-alive"] as string | undefined);
        });
      })
      .on("error", reject);
  });
}

describe("the studio's server", () => {
  it("tells a kept-alive client it holds idle connections for 65 s, not Node's 5 s", async () => {
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const { port } = server.address() as AddressInfo;
    expect(await keepAliveHeader(port)).toBe("timeout=65");
    expect(server.keepAliveTimeout).toBe(KEEP_ALIVE_TIMEOUT_MS);
    expect(server.headersTimeout).toBeGreaterThan(KEEP_ALIVE_TIMEOUT_MS);
    expect(server.headersTimeout).toBe(HEADERS_TIMEOUT_MS);
  });

  it("outlasts the Caddyfile's upstream keep-alive", () => {
    const caddyfile = fs.readFileSync(path.join(projectRoot, "deploy", "Caddyfile"), "utf8");
    const m = /transport http \{[^}]*keepalive (\d+)s/.exec(caddyfile);
    expect(m, "deploy/Caddyfile sets no upstream keepalive").not.toBeNull();
    expect(Number(m![1]) * 1000).toBeLessThan(KEEP_ALIVE_TIMEOUT_MS);
  });
});
