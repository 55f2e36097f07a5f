import dgram from "node:dgram";
import net from "node:net";
import { existsSync } from "node:fs";
import puppeteer, { type Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, POOL_CHROMIUM_FLAGS } from "../../../workers/render/browser";
import { BROWSERS, type BrowserName } from "../../colbench/render-profile";
import { defaultChromium, defaultExecutable, defaultFirefox } from "./browsers";
import { RenderPool } from "./render";

// Agent pages are untrusted: each page below tries one way out to a listener on this machine's
// loopback (TCP for HTTP and WebSockets, UDP for WebRTC). Rendered through the real pool, the
// listener must hear nothing, in both engines (Chromium, and Firefox over WebDriver BiDi, whose
// worker brings up its namespace's own loopback for the driver's WebSocket). A control renders
// two of them in a plain browser of the same engine first, to show the listener does hear a page
// that is let out.

let tcp: net.Server;
let udp: dgram.Socket;
let port = 0;
const hits: string[] = [];

beforeAll(async () => {
  tcp = net.createServer((socket) => {
    socket.once("data", (chunk) => hits.push(`tcp: ${chunk.toString("latin1").split("\r\n")[0]}`));
    socket.on("error", () => {});
    // Answer anything as HTTP so a request completes (and a redirect or upgrade would be seen).
    socket.end("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nAccess-Control-Allow-Origin: *\r\n\r\n");
  });
  await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
  port = (tcp.address() as net.AddressInfo).port;
  udp = dgram.createSocket("udp4");
  udp.on("message", () => hits.push("udp"));
  await new Promise<void>((resolve) => udp.bind(port, "127.0.0.1", resolve));
});

afterAll(async () => {
  await new Promise((resolve) => tcp?.close(resolve));
  udp?.close();
});

const page = (head: string, body = "", script = "") =>
  `<html><head>${head}</head><body><h1 class="text-3xl">hostile page</h1>${body}${script ? `<script>${script}</script>` : ""}</body></html>`;

/** Each escape gets the target origin (http://127.0.0.1:PORT or http://localhost:PORT) and a tag. */
const ESCAPES: Array<[string, (origin: string, host: string) => string]> = [
  ["fetch", (o) => page("", "", `fetch("${o}/fetch").catch(() => {})`)],
  [
    "fetch keepalive POST",
    (o) => page("", "", `fetch("${o}/keepalive", {method: "POST", body: "x", keepalive: true}).catch(() => {})`),
  ],
  ["XMLHttpRequest", (o) => page("", "", `const x = new XMLHttpRequest(); x.open("GET", "${o}/xhr"); x.send()`)],
  ["img", (o) => page("", `<img src="${o}/img.png">`)],
  ["new Image()", (o) => page("", "", `new Image().src = "${o}/image"`)],
  [
    "svg image",
    (o) => page("", `<svg width="10" height="10"><image href="${o}/svg.png" width="10" height="10"/></svg>`),
  ],
  ["input type=image", (o) => page("", `<input type="image" src="${o}/input.png">`)],
  ["CSS background url()", (o) => page(`<style>body{background:url(${o}/bg.png)}</style>`)],
  ["CSS @import", (o) => page(`<style>@import url("${o}/import.css");</style>`)],
  ["CSS @font-face", (o) => page(`<style>@font-face{font-family:x;src:url(${o}/font.woff)} h1{font-family:x}</style>`)],
  [
    "CSS cursor and list-style-image",
    (o) =>
      page(
        `<style>h1{cursor:url(${o}/cur.png),auto} ul{list-style-image:url(${o}/li.png)}</style>`,
        "<ul><li>x</li></ul>",
      ),
  ],
  ["link stylesheet", (o) => page(`<link rel="stylesheet" href="${o}/style.css">`)],
  ["link preload", (o) => page(`<link rel="preload" as="image" href="${o}/preload.png">`)],
  ["link prefetch", (o) => page(`<link rel="prefetch" href="${o}/prefetch">`)],
  ["link preconnect", (o) => page(`<link rel="preconnect" href="${o}">`)],
  ["link dns-prefetch", (o) => page(`<link rel="dns-prefetch" href="${o}">`)],
  ["script src", (o) => page(`<script src="${o}/script.js"></script>`)],
  ["dynamic import()", (o) => page("", "", `import("${o}/module.js").catch(() => {})`)],
  ["iframe", (o) => page("", `<iframe src="${o}/frame"></iframe>`)],
  ["iframe srcdoc that fetches", (o) => page("", `<iframe srcdoc="<script>fetch('${o}/srcdoc')</script>"></iframe>`)],
  ["object", (o) => page("", `<object data="${o}/object"></object>`)],
  ["embed", (o) => page("", `<embed src="${o}/embed">`)],
  [
    "video and audio",
    (o) => page("", `<video src="${o}/v.mp4" autoplay muted></video><audio src="${o}/a.mp3" autoplay></audio>`),
  ],
  [
    "video track",
    (o) => page("", `<video src="data:video/mp4;base64,AAAA"><track default src="${o}/track.vtt"></video>`),
  ],
  ["base href", (o) => page(`<base href="${o}/">`, `<img src="based.png">`)],
  [
    "form auto-submit",
    (o) =>
      page(
        "",
        `<form id="f" method="POST" action="${o}/form"><input name="a" value="b"></form>`,
        `document.getElementById("f").submit()`,
      ),
  ],
  ["meta refresh", (o) => page(`<meta http-equiv="refresh" content="0;url=${o}/refresh">`)],
  ["location change", (o) => page("", "", `location.href = "${o}/location"`)],
  ["a click", (o) => page("", `<a id="a" href="${o}/click">x</a>`, `document.getElementById("a").click()`)],
  ["a ping", (o) => page("", `<a id="a" href="#x" ping="${o}/ping">x</a>`, `document.getElementById("a").click()`)],
  ["window.open", (o) => page("", "", `window.open("${o}/popup")`)],
  [
    "target=_blank",
    (o) => page("", `<a id="a" href="${o}/blank" target="_blank">x</a>`, `document.getElementById("a").click()`),
  ],
  ["WebSocket", (_o, h) => page("", "", `new WebSocket("ws://${h}/socket")`)],
  ["sendBeacon", (o) => page("", "", `navigator.sendBeacon("${o}/beacon", "data")`)],
  ["EventSource", (o) => page("", "", `new EventSource("${o}/events")`)],
  [
    "WebRTC STUN",
    (_o, h) =>
      page(
        "",
        "",
        `const pc = new RTCPeerConnection({iceServers: [{urls: "stun:${h}"}]}); pc.createDataChannel("x"); pc.createOffer().then((o) => pc.setLocalDescription(o))`,
      ),
  ],
  [
    "dedicated Worker",
    (o) =>
      page("", "", `new Worker(URL.createObjectURL(new Blob(["fetch('${o}/worker')"], {type: "text/javascript"})))`),
  ],
  [
    "Worker importScripts",
    (o) =>
      page(
        "",
        "",
        `new Worker(URL.createObjectURL(new Blob(["importScripts('${o}/import.js')"], {type: "text/javascript"})))`,
      ),
  ],
  [
    "SharedWorker",
    (o) =>
      page(
        "",
        "",
        `new SharedWorker(URL.createObjectURL(new Blob(["fetch('${o}/shared')"], {type: "text/javascript"})))`,
      ),
  ],
  [
    "service worker",
    (o) => page("", "", `navigator.serviceWorker && navigator.serviceWorker.register("${o}/sw.js").catch(() => {})`),
  ],
];

/** A page let out: the engine as a plain setup starts it, no namespace, no interception, no proxy. */
async function plainBrowser(engine: BrowserName): Promise<{ browser: Browser; close: () => Promise<void> }> {
  if (engine === "chromium")
    return launchChromium(
      defaultChromium(),
      POOL_CHROMIUM_FLAGS.filter((f) => !f.startsWith("--proxy")),
    );
  const browser = await puppeteer.launch({ browser: "firefox", executablePath: defaultFirefox(), headless: true });
  return { browser, close: () => browser.close() };
}

for (const engine of BROWSERS) {
  const executable = defaultExecutable(engine);
  const present = existsSync(executable);
  describe.skipIf(!present)(
    present
      ? `agent pages rendered by the pool reach nothing (${engine})`
      : `agent pages rendered by the pool reach nothing (${engine}; skipped: no ${executable})`,
    () => {
      let pool: RenderPool;
      beforeAll(async () => {
        pool = await RenderPool.start({ browser: engine, cache: false, deadlineMs: 4_000 });
      }, 60_000);
      afterAll(async () => pool?.close());

      it(
        `a page let out (plain ${engine}, no namespace, interception or proxy) is heard: the listener works`,
        { timeout: 60_000 },
        async () => {
          const { browser, close } = await plainBrowser(engine);
          try {
            const tab = await browser.newPage();
            const before = hits.length;
            await tab.setContent(
              ESCAPES.find(([name]) => name === "WebSocket")![1](`http://127.0.0.1:${port}`, `127.0.0.1:${port}`),
              { waitUntil: "load" },
            );
            await tab.setContent(
              ESCAPES.find(([name]) => name === "sendBeacon")![1](`http://127.0.0.1:${port}`, `127.0.0.1:${port}`),
              { waitUntil: "load" },
            );
            await expect.poll(() => hits.length - before, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
          } finally {
            await close();
          }
          hits.length = 0;
        },
      );

      it(`holds ${ESCAPES.length * 2} escapes (each at 127.0.0.1 and at localhost)`, { timeout: 300_000 }, async () => {
        console.log(`renderer isolation (${engine}): ${pool.isolation.describe}`);
        let tried = 0;
        const statuses: string[] = [];
        await Promise.all(
          ESCAPES.flatMap(([name, make]) =>
            [`127.0.0.1:${port}`, `localhost:${port}`].map(async (host) => {
              const result = await pool.render(make(`http://${host}`, host));
              statuses.push(`${name}: ${result.status}`);
              tried++;
            }),
          ),
        );
        // Some ways out are asynchronous (a worker starting, an ICE gathering): give them time to try.
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        const held = tried - hits.length;
        console.log(`attacks (${engine}): ${tried} tried, ${held} held`);
        expect(hits, statuses.join("\n")).toEqual([]);
        expect(tried).toBeGreaterThanOrEqual(60);
      });
    },
  );
}
