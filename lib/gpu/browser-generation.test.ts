import { describe, expect, it } from "vitest";
import { cachingFetch, explainLoadError, memoryNeed, memoryVerdict, type CacheReport } from "./browser-generation";
import { parseConfig } from "./model/config";

// The in-tab agent's checks before and while loading, and the weights cache it reads through.

const GB = 1024 ** 3;

describe("memory", () => {
  it("counts the weights, every position's keys and values and a step's logits", () => {
    const config = parseConfig({
      architectures: ["Qwen2ForCausalLM"],
      model_type: "qwen2",
      hidden_size: 896,
      intermediate_size: 4864,
      num_hidden_layers: 24,
      num_attention_heads: 14,
      num_key_value_heads: 2,
      vocab_size: 151936,
      rms_norm_eps: 1e-6,
      rope_theta: 1000000,
    });
    // Qwen2.5-0.5B: 24 layers × k and v × 2 heads × 64 × f32 = 24 KiB a position.
    expect(memoryNeed(config, 988_097_824, 4096)).toBe(988_097_824 + 24 * 2 * 2 * 64 * 4 * 4096 + 151936 * 16);
  });

  it("refuses a model larger than a memory the browser reports below Chrome's ceiling, naming what would work", () => {
    const refusal = memoryVerdict({ need: 3 * GB, deviceMemoryGb: 2 });
    expect(refusal).toContain("needs about 3.0 GB");
    expect(refusal).toContain("reports 2 GB");
    expect(refusal).toContain("--policy-weights DIR");
    expect(refusal).toContain("a model server as the agent");
    expect(memoryVerdict({ need: 1 * GB, deviceMemoryGb: 2 })).toBeNull();
    // 8 is "8 or more", and a browser that says nothing is not refused before loading.
    expect(memoryVerdict({ need: 30 * GB, deviceMemoryGb: 8 })).toBeNull();
    expect(memoryVerdict({ need: 30 * GB })).toBeNull();
  });

  it("tells a GPU out of memory or a too-large buffer from other load errors", () => {
    expect(
      explainLoadError("embed: 9000000000 bytes is more than this adapter's largest buffer (4294967296)", GB),
    ).toMatchObject({
      kind: "memory",
    });
    expect(explainLoadError("out of memory: Not enough memory left", GB).message).toContain("What would work");
    expect(explainLoadError("config.json: hidden_size must be a number", GB)).toEqual({
      kind: "failed",
      message: "config.json: hidden_size must be a number",
    });
  });
});

/** Cache Storage's one cache, as far as the fetch uses it. */
class MemoryCache {
  readonly kept = new Map<string, { body: Uint8Array; headers: Headers }>();
  async match(url: string): Promise<Response | undefined> {
    const hit = this.kept.get(url);
    return hit ? new Response(hit.body.slice(), { headers: hit.headers }) : undefined;
  }
  async put(url: string, response: Response): Promise<void> {
    this.kept.set(url, { body: new Uint8Array(await response.arrayBuffer()), headers: response.headers });
  }
}

function studio(files: Record<string, { bytes: Uint8Array; etag: string }>) {
  const gets: string[] = [];
  const network = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input as string;
    const file = files[url]!;
    // As the studio answers: its server drops Content-Length, the size comes as X-File-Size.
    const headers = { ETag: file.etag, "X-File-Size": String(file.bytes.byteLength) };
    if ((init?.method ?? "GET") === "HEAD") return new Response(null, { headers });
    gets.push(url);
    return new Response(file.bytes.slice(), { headers });
  }) as typeof fetch;
  return { network, gets };
}

describe("cachingFetch", () => {
  it("reads an unchanged safetensors file from the cache, a changed one from the studio, other files always from the studio", async () => {
    const url = "http://studio/api/weights/policy/model.safetensors";
    const config = "http://studio/api/weights/policy/config.json";
    const files = {
      [url]: { bytes: new Uint8Array([1, 2, 3, 4, 5]), etag: '"5-a"' },
      [config]: { bytes: new TextEncoder().encode("{}"), etag: '"2-a"' },
    };
    const { network, gets } = studio(files);
    const cache = new MemoryCache();
    const reports: CacheReport[] = [];
    const get = cachingFetch(cache as unknown as Cache, (r) => reports.push(r), network);
    const read = async (u: string) => new Uint8Array(await (await get(u)).arrayBuffer());

    expect(await read(url)).toEqual(files[url].bytes);
    // The kept copy is written as the stream is read.
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await read(url)).toEqual(files[url].bytes);
    expect(gets).toEqual([url]);
    expect(reports).toEqual([
      { url, bytes: 5, hit: false },
      { url, bytes: 5, hit: true },
    ]);

    files[url] = { bytes: new Uint8Array([9, 9, 9]), etag: '"3-b"' };
    expect(await read(url)).toEqual(new Uint8Array([9, 9, 9]));
    expect(reports.at(-1)).toEqual({ url, bytes: 3, hit: false });

    await read(config);
    await read(config);
    expect(gets.filter((g) => g === config)).toHaveLength(2);
    // A range request goes to the studio as asked.
    await get(url, { headers: { Range: "bytes=1-" } });
    expect(gets.filter((g) => g === url)).toHaveLength(3);
  });

  it("without a cache (none in this browser) is the network's fetch", async () => {
    const url = "http://studio/w/model.safetensors";
    const { network, gets } = studio({ [url]: { bytes: new Uint8Array([7]), etag: '"1-a"' } });
    const reports: CacheReport[] = [];
    const get = cachingFetch(null, (r) => reports.push(r), network);
    await (await get(url)).arrayBuffer();
    await (await get(url)).arrayBuffer();
    expect([gets.length, reports]).toEqual([2, []]);
  });
});
