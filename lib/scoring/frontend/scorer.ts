import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ImageEmbedder } from "./embedders/types";
import type { FrontendAnswer } from "./input";
import { fallbackPng } from "./png";
import { RenderPool, type RenderPoolOptions, type RenderResult } from "./render";
import type { RenderStatus } from "./render-protocol";
import type { RenderProfile } from "../../colbench/render-profile";
import { cosine } from "./similarity";

// ColBench's frontend reward: the cosine similarity of the image embeddings of the answer's
// screenshot and the target's. Renders come from the render pool (content-addressed, cached on
// disk); embeddings are kept beside the cached renders, one file per embedder.

export type AnswerSource = RenderStatus | "image" | "none";

export interface FrontendScore {
  reward: number;
  embedder: string;
  /** Where the embedder ran (cpu, webgpu, reference); absent for the weight-free embedder. */
  device?: string;
  /** How both screenshots were made (profile, engine, placeholders): scores under different ones are not comparable. */
  profile: RenderProfile;
  /** Render id of the answer (sha256), "png:<sha256>" for an image answer, "fallback" for none. */
  answerRender: string;
  targetRender: string;
  answerStatus: AnswerSource;
  targetStatus: RenderStatus;
  /** Why the answer's render is not a clean one: it failed or timed out, or it did only when rendered again in a fresh browser. */
  answerError?: string;
  targetError?: string;
}

/** What a score keeps of a render that was not clean (absent for a clean first attempt). */
export function renderTrouble(r: Pick<RenderResult, "status" | "error" | "retried">): string | undefined {
  const parts: string[] = [];
  if (r.retried)
    parts.push(
      `first attempt ${r.retried.status}${r.retried.error ? `: ${r.retried.error}` : ""}; rendered again alone in a fresh browser`,
    );
  if (r.status !== "ok") parts.push(`${r.status}${r.error ? `: ${r.error}` : ""}`);
  return parts.length ? parts.join("; then ") : undefined;
}

export interface FrontendScorerOptions {
  embedder: ImageEmbedder;
  /** A running pool to use (left open on close); otherwise one is started with `renderOptions`. */
  pool?: RenderPool;
  renderOptions?: RenderPoolOptions;
}

export class FrontendScorer {
  private readonly embeddings = new Map<string, Promise<Float32Array>>();

  private constructor(
    readonly pool: RenderPool,
    readonly embedder: ImageEmbedder,
    private readonly ownsPool: boolean,
  ) {}

  static async start(options: FrontendScorerOptions): Promise<FrontendScorer> {
    const pool = options.pool ?? (await RenderPool.start(options.renderOptions));
    return new FrontendScorer(pool, options.embedder, !options.pool);
  }

  async score(groundTruth: string, answer: FrontendAnswer): Promise<FrontendScore> {
    const [target, answered] = await Promise.all([this.pool.render(groundTruth), this.answerImage(answer)]);
    const [a, t] = await Promise.all([
      this.embedding(answered.id, answered.png, answered.cacheable),
      this.embedding(target.id, target.png, target.status === "ok"),
    ]);
    const answerError = answered.trouble;
    const targetError = renderTrouble(target);
    return {
      reward: cosine(a, t),
      embedder: this.embedder.id,
      ...(this.embedder.device ? { device: this.embedder.device } : {}),
      profile: target.profile,
      answerRender: answered.id,
      targetRender: target.id,
      answerStatus: answered.status,
      targetStatus: target.status,
      ...(answerError ? { answerError } : {}),
      ...(targetError ? { targetError } : {}),
    };
  }

  private async answerImage(
    answer: FrontendAnswer,
  ): Promise<{ id: string; png: Buffer; status: AnswerSource; cacheable: boolean; trouble?: string }> {
    if (answer.kind === "none") return { id: "fallback", png: fallbackPng(), status: "none", cacheable: false };
    if (answer.kind === "image") {
      const png = await readFile(answer.path);
      return { id: `png:${createHash("sha256").update(png).digest("hex")}`, png, status: "image", cacheable: false };
    }
    const r: RenderResult = await this.pool.render(answer.html);
    const trouble = renderTrouble(r);
    return { id: r.id, png: r.png, status: r.status, cacheable: r.status === "ok", ...(trouble ? { trouble } : {}) };
  }

  /** One embedding per image and embedder: in memory for this run, on disk beside cached renders. */
  private embedding(id: string, png: Buffer, onDisk: boolean): Promise<Float32Array> {
    const key = `${id}\0${this.embedder.id}`;
    let pending = this.embeddings.get(key);
    if (!pending) {
      const dir = this.pool.cacheDir;
      const file =
        onDisk && dir && /^[0-9a-f]{64}$/.test(id)
          ? path.join(dir, id.slice(0, 2), `${id}.${this.embedder.id}.f32`)
          : null;
      pending = (async () => {
        if (file) {
          const bytes = await readFile(file).catch(() => null);
          if (bytes && bytes.byteLength % 4 === 0 && bytes.byteLength > 0)
            return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
        }
        const v = await this.embedder.embed(png);
        if (file) {
          await mkdir(path.dirname(file), { recursive: true });
          const tmp = `${file}.${process.pid}.tmp`;
          await writeFile(tmp, Buffer.from(v.buffer, v.byteOffset, v.byteLength));
          await rename(tmp, file);
        }
        return v;
      })();
      this.embeddings.set(key, pending);
    }
    return pending;
  }

  async close(): Promise<void> {
    await this.embedder.close?.();
    if (this.ownsPool) await this.pool.close();
  }
}
