// The benches' naive peer: one Puppeteer page, setContent and a full-page screenshot per page,
// showing pages as the pool does (PAGE_POLICY) and answering outside requests with the pool's
// Responder, by default the plain way (the whole stylesheet, images drawn on every request).

import puppeteer, { type Page } from "puppeteer-core";
import { BASE_CHROMIUM_FLAGS, headlessMode } from "../workers/render/browser";
import { Responder, type ResponderOptions } from "../workers/render/responder";
import { PAGE_POLICY } from "../workers/render/slot";

/** `answers`: how outside requests are answered; by default as plainly as a naive setup would (the whole stylesheet, images drawn on every request). */
export async function naivePage(
  executablePath: string,
  answers: ResponderOptions = { subsetTailwind: false, memoizeImages: false },
) {
  const browser = await puppeteer.launch({
    executablePath,
    headless: headlessMode(executablePath),
    args: BASE_CHROMIUM_FLAGS,
    protocolTimeout: 60_000,
  });
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  // How pages are shown (settled transitions, Chrome's default fonts) is the same for both.
  const cdp = await page.createCDPSession();
  for (const [method, params] of PAGE_POLICY) await cdp.send(method, params);
  // The pool's offline answers, through Puppeteer's own request interception.
  const responder = new Responder(answers);
  await page.setRequestInterception(true);
  page.on("request", (request) => {
    const answer = responder.reply({
      url: request.url(),
      isNavigation: request.isNavigationRequest(),
      isMainFrame: request.frame() === page.mainFrame(),
    });
    void Promise.resolve(answer).then((reply) =>
      (reply.kind === "continue"
        ? request.continue()
        : reply.kind === "abort"
          ? request.abort("blockedbyclient")
          : request.respond({ status: reply.status, headers: reply.headers, body: reply.body })
      ).catch(() => {}),
    );
  });
  return { browser, page, responder };
}

export async function naiveRender(page: Page, html: string): Promise<Buffer> {
  await page.setContent(html, { waitUntil: "load", timeout: 30_000 });
  return Buffer.from(await page.screenshot({ fullPage: true }));
}
