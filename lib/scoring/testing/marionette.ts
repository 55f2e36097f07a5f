import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

// Firefox driven the way the published scorer drives it, for checking the render pool against:
// Selenium's get_full_page_screenshot_as_file goes through geckodriver to Marionette, Firefox's
// own remote protocol, as `WebDriver:TakeScreenshot {full: true}`. Marionette is spoken here
// directly (length-prefixed JSON: `LEN:[0, id, command, params]`, answered `[1, id, error, result]`),
// which is all geckodriver adds for these three commands. Tests and benches only.

export class Marionette {
  private buffer = Buffer.alloc(0);
  private readonly waiting: ((message: unknown[]) => void)[] = [];
  private nextId = 1;

  private constructor(
    private readonly firefox: ChildProcess,
    private readonly socket: net.Socket,
    private readonly profile: string,
  ) {
    socket.on("data", (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      for (;;) {
        const colon = this.buffer.indexOf(0x3a);
        if (colon < 0) return;
        const length = Number(this.buffer.subarray(0, colon).toString());
        if (this.buffer.length < colon + 1 + length) return;
        const message = JSON.parse(this.buffer.subarray(colon + 1, colon + 1 + length).toString()) as unknown[];
        this.buffer = this.buffer.subarray(colon + 1 + length);
        this.waiting.shift()?.(message);
      }
    });
  }

  /** Starts headless Firefox with Marionette on a free port and opens a session (window 1366x768, as Selenium leaves it). */
  static async launch(executablePath: string): Promise<Marionette> {
    const profile = mkdtempSync(path.join(os.tmpdir(), "colbench-marionette-"));
    writeFileSync(
      path.join(profile, "user.js"),
      'user_pref("marionette.port", 0);\nuser_pref("browser.shell.checkDefaultBrowser", false);\n',
    );
    const firefox = spawn(
      executablePath,
      ["--headless", "--marionette", "--no-remote", "--profile", profile, "about:blank"],
      { stdio: "ignore" },
    );
    try {
      const portFile = path.join(profile, "MarionetteActivePort");
      const deadline = Date.now() + 60_000;
      while (!existsSync(portFile) || !readFileSync(portFile, "utf8").trim()) {
        if (Date.now() > deadline || firefox.exitCode !== null) throw new Error("Firefox's Marionette did not start");
        await new Promise((r) => setTimeout(r, 100));
      }
      const port = Number(readFileSync(portFile, "utf8").trim());
      const socket = net.connect(port, "127.0.0.1");
      await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
      const m = new Marionette(firefox, socket, profile);
      await new Promise<unknown[]>((resolve) => m.waiting.push(resolve)); // the greeting
      await m.command("WebDriver:NewSession", { capabilities: {} });
      return m;
    } catch (error) {
      firefox.kill("SIGKILL");
      rmSync(profile, { recursive: true, force: true });
      throw error;
    }
  }

  async command(name: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const reply = new Promise<unknown[]>((resolve) => this.waiting.push(resolve));
    const body = JSON.stringify([0, this.nextId++, name, params]);
    this.socket.write(`${Buffer.byteLength(body)}:${body}`);
    const [, , error, result] = await reply;
    if (error) throw new Error(`${name}: ${JSON.stringify(error)}`);
    return result as Record<string, unknown>;
  }

  /** What the published scorer does: open the page's file, take the full screenshot (a PNG). */
  async fullScreenshot(file: string): Promise<Buffer> {
    await this.command("WebDriver:Navigate", { url: `file://${path.resolve(file)}` });
    const shot = await this.command("WebDriver:TakeScreenshot", { full: true, hash: false });
    return Buffer.from(String(shot.value), "base64");
  }

  async evaluate<T>(script: string): Promise<T> {
    return (await this.command("WebDriver:ExecuteScript", { script, args: [] })).value as T;
  }

  async close(): Promise<void> {
    await this.command("WebDriver:DeleteSession", {}).catch(() => {});
    this.socket.destroy();
    const exited = new Promise((r) => this.firefox.once("exit", r));
    this.firefox.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    if (this.firefox.exitCode === null) this.firefox.kill("SIGKILL");
    rmSync(this.profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}
