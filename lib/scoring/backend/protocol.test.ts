import { describe, expect, it } from "vitest";
import { encodeFrame, FrameDecoder, MAX_FRAME } from "./protocol";

describe("sandbox framing", () => {
  it("reassembles frames however the stream splits or merges them", () => {
    const messages = [{ type: "hello", n: 1 }, { id: 2, text: "ünïcödé ✓".repeat(50) }, { id: 3 }];
    const bytes = Buffer.concat(messages.map(encodeFrame));
    for (const size of [1, 3, 7, bytes.length]) {
      const decoder = new FrameDecoder();
      const out: unknown[] = [];
      for (let at = 0; at < bytes.length; at += size) out.push(...decoder.push(bytes.subarray(at, at + size)));
      expect(out).toEqual(messages);
    }
  });

  it("refuses a frame longer than the limit", () => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(MAX_FRAME + 1, 0);
    expect(() => new FrameDecoder().push(head)).toThrow(/exceeds/);
  });
});
