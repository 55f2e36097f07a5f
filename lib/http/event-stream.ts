// Server-sent events as a plain web Response, shared by every live view: the caller subscribes
// to whatever it pushes and returns how to unsubscribe; the stream ends when the browser leaves.

export type Send = (event: string, data: unknown) => void;

const HEARTBEAT_MS = 15_000;

export function eventStream(request: Request, subscribe: (send: Send) => (() => void) | Promise<() => void>): Response {
  const encoder = new TextEncoder();
  let unsubscribe: (() => void) | null = null;
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  let closed = false;
  const cleanup = () => {
    if (closed) return;
    closed = true;
    if (heartbeat) clearInterval(heartbeat);
    unsubscribe?.();
  };
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send: Send = (event, data) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
        } catch {
          cleanup();
        }
      };
      request.signal.addEventListener("abort", () => {
        cleanup();
        try {
          controller.close();
        } catch {
          // already closed
        }
      });
      // A comment (ignored by EventSource) at once: the headers and a first byte leave now, not with the
      // first event, so a proxy that holds headers until the body starts (Caddy's `encode`) shows the
      // stream as open straight away.
      controller.enqueue(encoder.encode(": open\n\n"));
      heartbeat = setInterval(() => send("ping", {}), HEARTBEAT_MS);
      const off = await subscribe(send);
      if (closed) off();
      else unsubscribe = off;
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    },
  });
}
