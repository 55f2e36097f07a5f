import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { safetensorsFromStream } from "./safetensors-bytes";
import { urlSource } from "./source";
import { parseByteRange } from "../../http/byte-range";

// A checkpoint laid out as CLIP's is: the text tower's tensors first (here 1.5 MB), then the vision
// tower's. Read as a stream, only the wanted tensors are kept; given a way to start the file
// part-way, the bytes before them are never fetched.

function checkpoint(): { bytes: Uint8Array; text: Float32Array; vision: Float32Array; projection: Float32Array } {
  const text = Float32Array.from({ length: 375_000 }, (_, i) => i % 7);
  const vision = Float32Array.from([1.5, -2, 3.25, 4]);
  const projection = Float32Array.from([0.5, 0.25, -1, 8]);
  const tensors = [
    ["text_model.embeddings.weight", [375_000], text],
    ["vision_model.embeddings.weight", [4], vision],
    ["visual_projection.weight", [2, 2], projection],
  ] as const;
  let offset = 0;
  const header: Record<string, unknown> = { __metadata__: { format: "pt" } };
  for (const [name, shape, data] of tensors) {
    header[name] = { dtype: "F32", shape, data_offsets: [offset, offset + data.byteLength] };
    offset += data.byteLength;
  }
  const json = new TextEncoder().encode(JSON.stringify(header));
  const bytes = new Uint8Array(8 + json.byteLength + offset);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(json.byteLength), true);
  bytes.set(json, 8);
  let at = 8 + json.byteLength;
  for (const [, , data] of tensors) {
    bytes.set(new Uint8Array(data.buffer), at);
    at += data.byteLength;
  }
  return { bytes, text, vision, projection };
}

/** The bytes from `from` on in 64 KiB chunks, counting what a reader pulled. */
function chunked(bytes: Uint8Array, from: number, pulled: { bytes: number }): ReadableStream<Uint8Array> {
  let at = from;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.byteLength) return controller.close();
      const chunk = bytes.slice(at, at + 65_536);
      at += chunk.byteLength;
      pulled.bytes += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
}

const wanted = (name: string) => name.startsWith("vision_model.") || name === "visual_projection.weight";

describe("safetensorsFromStream", () => {
  const { bytes, vision, projection } = checkpoint();

  it("reads through the text tower when it cannot start part-way, and keeps only the wanted tensors", async () => {
    const pulled = { bytes: 0 };
    const read = await safetensorsFromStream(chunked(bytes, 0, pulled), wanted);
    expect(read("vision_model.embeddings.weight", [4])).toEqual(vision);
    expect(read("visual_projection.weight", [2, 2])).toEqual(projection);
    expect(() => read("text_model.embeddings.weight", [375_000])).toThrow("no tensor text_model.embeddings.weight");
    expect(pulled.bytes).toBe(bytes.byteLength);
  });

  it("skips to the first wanted tensor where it can, pulling a fraction of the file", async () => {
    const first = { bytes: 0 };
    const second = { bytes: 0 };
    const asked: number[] = [];
    const positions: number[] = [];
    const read = await safetensorsFromStream(
      chunked(bytes, 0, first),
      wanted,
      (p) => positions.push(p),
      async (offset) => {
        asked.push(offset);
        return chunked(bytes, offset, second);
      },
    );
    expect(read("vision_model.embeddings.weight", [4])).toEqual(vision);
    expect(read("visual_projection.weight", [2, 2])).toEqual(projection);
    expect(asked).toEqual([bytes.byteLength - 32]);
    expect(first.bytes + second.bytes).toBeLessThan(200_000);
    expect(positions.at(-1)).toBe(bytes.byteLength);
  });
});

describe("urlSource.streamFrom", () => {
  const { bytes } = checkpoint();
  const servers: http.Server[] = [];
  afterAll(() => servers.forEach((s) => s.close()));
  async function serve(ranges: boolean): Promise<string> {
    const server = http.createServer((request, response) => {
      const range = ranges ? parseByteRange(request.headers.range ?? null, bytes.byteLength) : null;
      if (range && range !== "unsatisfiable") {
        response.writeHead(206, { "Content-Range": `bytes ${range.start}-${range.end}/${bytes.byteLength}` });
        response.end(bytes.subarray(range.start, range.end + 1));
      } else response.end(bytes);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  const readAll = async (stream: ReadableStream<Uint8Array>) =>
    new Uint8Array(await new Response(stream).arrayBuffer());

  it.each([true, false])(
    "gives the file's bytes from an offset whether the server answers ranges (%s) or sends it whole",
    async (ranges) => {
      const source = urlSource(await serve(ranges));
      const tail = await readAll(await source.streamFrom!("model.safetensors", 1_000_000));
      expect(Buffer.compare(tail, bytes.subarray(1_000_000))).toBe(0);
    },
  );
});
