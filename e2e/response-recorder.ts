import type { Page } from "@playwright/test";

/**
 * Everything a page receives: every HTTP response body (HTML, RSC payloads, JSON, scripts) and
 * every server-sent event message, the latter through the DevTools protocol because an event
 * stream's body never ends.
 */
export async function recordResponses(page: Page): Promise<{ bodies: string[]; settle: () => Promise<void> }> {
  const bodies: string[] = [];
  const pending: Promise<void>[] = [];
  page.on("response", (response) => {
    const type = response.headers()["content-type"] ?? "";
    if (type.includes("text/event-stream")) return;
    pending.push(
      response
        .body()
        .then((b) => void bodies.push(b.toString("utf8")))
        .catch(() => {}),
    );
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  cdp.on("Network.eventSourceMessageReceived", (event) => void bodies.push(event.data));
  return { bodies, settle: async () => void (await Promise.all(pending)) };
}

/** The forms a secret can take inside a response: as is, JSON-escaped, HTML-escaped. */
function forms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const html = secret
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
  return [...new Set([secret, json, html, JSON.stringify(json).slice(1, -1)])];
}

/** Which secrets appear in which bodies (empty when nothing leaked). */
export function leaks(bodies: string[], secrets: string[]): string[] {
  const found: string[] = [];
  for (const secret of secrets) {
    for (const body of bodies) {
      if (forms(secret).some((f) => body.includes(f))) {
        found.push(
          `${JSON.stringify(secret.slice(0, 60))} in a response starting ${JSON.stringify(body.slice(0, 80))}`,
        );
        break;
      }
    }
  }
  return found;
}

/** Distinctive pieces of a hidden text: the whole, and each line long enough not to occur by chance. */
export function secretPieces(text: string, minLine = 16): string[] {
  return [
    text,
    ...text
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l.length >= minLine),
  ];
}
