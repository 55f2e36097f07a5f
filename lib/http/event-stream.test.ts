import { describe, expect, it } from "vitest";
import { eventStream, type Send } from "./event-stream";

describe("eventStream", () => {
  it("sends a first byte before any event, then events as server-sent events, and unsubscribes when the reader leaves", async () => {
    let send: Send | null = null;
    let unsubscribed = false;
    const response = eventStream(new Request("http://localhost/api/events"), (s) => {
      send = s;
      return () => {
        unsubscribed = true;
      };
    });
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    // Nothing has been published yet, and still the stream has begun (a proxy then passes the headers on).
    expect(decoder.decode((await reader.read()).value)).toBe(": open\n\n");
    await new Promise((resolve) => setTimeout(resolve, 0));
    send!("run", { runId: 3, state: "done" });
    expect(decoder.decode((await reader.read()).value)).toBe('event: run\ndata: {"runId":3,"state":"done"}\n\n');
    await reader.cancel();
    expect(unsubscribed).toBe(true);
  });
});
