import type { ModelConfig } from "./config";
import { readSafetensors, type TensorEntry, type TensorWriter } from "./safetensors";
import { jsonFile, type WeightSource } from "./source";

// Where each checkpoint tensor goes: tensors used together share one buffer (a group), so a layer's
// q, k and v projections become one fused matrix with their biases behind it, and gate and up one
// matrix. Offsets are in elements, kept even so 16-bit weights start on a 4-byte boundary.

export interface Placement {
  group: string;
  /** Element offset in the group. */
  at: number;
  shape: number[];
}

export interface Layout {
  groups: Map<string, number>;
  place(name: string): Placement | null;
  /** Element offsets inside groups the model reads (bias positions). */
  offsets: { qkvBias: number; oBias: number; up: number; postNorm: number };
  required: string[];
}

const even = (n: number) => n + (n & 1);

export function planLayout(c: ModelConfig): Layout {
  const q = c.heads * c.headDim;
  const kv = c.kvHeads * c.headDim;
  const qkvRows = q + 2 * kv;
  const placements = new Map<string, Placement>();
  const groups = new Map<string, number>();
  const put = (group: string, entries: Array<[string, number[]]>) => {
    let at = 0;
    for (const [name, shape] of entries) {
      placements.set(name, { group, at, shape });
      at = even(at + shape.reduce((a, b) => a * b, 1));
    }
    groups.set(group, at);
  };
  const qkvBias = even(even(even(q * c.hidden) + kv * c.hidden) + kv * c.hidden);
  for (let i = 0; i < c.layers; i++) {
    const p = `model.layers.${i}.`;
    put(`layer.${i}.norms`, [
      [`${p}input_layernorm.weight`, [c.hidden]],
      [`${p}post_attention_layernorm.weight`, [c.hidden]],
    ]);
    put(`layer.${i}.qkv`, [
      [`${p}self_attn.q_proj.weight`, [q, c.hidden]],
      [`${p}self_attn.k_proj.weight`, [kv, c.hidden]],
      [`${p}self_attn.v_proj.weight`, [kv, c.hidden]],
      ...(c.qkvBias
        ? ([
            [`${p}self_attn.q_proj.bias`, [q]],
            [`${p}self_attn.k_proj.bias`, [kv]],
            [`${p}self_attn.v_proj.bias`, [kv]],
          ] as Array<[string, number[]]>)
        : []),
    ]);
    put(`layer.${i}.o`, [
      [`${p}self_attn.o_proj.weight`, [c.hidden, q]],
      ...(c.oBias ? ([[`${p}self_attn.o_proj.bias`, [c.hidden]]] as Array<[string, number[]]>) : []),
    ]);
    put(`layer.${i}.gateUp`, [
      [`${p}mlp.gate_proj.weight`, [c.inner, c.hidden]],
      [`${p}mlp.up_proj.weight`, [c.inner, c.hidden]],
    ]);
    put(`layer.${i}.down`, [[`${p}mlp.down_proj.weight`, [c.hidden, c.inner]]]);
  }
  put("norm", [["model.norm.weight", [c.hidden]]]);
  put("embed", [["model.embed_tokens.weight", [c.vocab, c.hidden]]]);
  if (!c.tied) put("lmHead", [["lm_head.weight", [c.vocab, c.hidden]]]);
  if (qkvRows <= 0) throw new Error("no attention heads");
  return {
    groups,
    place: (name) => placements.get(name) ?? null,
    offsets: { qkvBias, oBias: even(c.hidden * q), up: even(c.inner * c.hidden), postNorm: even(c.hidden) },
    required: [...placements.keys()],
  };
}

/** The checkpoint's safetensors files: the index's shards, else model.safetensors. */
export async function checkpointFiles(source: WeightSource): Promise<string[]> {
  const index = (await jsonFile(source, "model.safetensors.index.json")) as {
    weight_map?: Record<string, string>;
  } | null;
  if (index) {
    if (!index.weight_map || typeof index.weight_map !== "object")
      throw new Error(`${source.where}/model.safetensors.index.json: weight_map: missing`);
    return [...new Set(Object.values(index.weight_map))].sort();
  }
  return ["model.safetensors"];
}

export interface LoadProgress {
  loaded: number;
  total: number;
  file: string;
}

/**
 * Streams every tensor the layout places to `writerFor` (file by file, in data order), reporting
 * bytes read; checks each tensor's shape against the config and that none is missing.
 */
export async function streamCheckpoint(
  source: WeightSource,
  layout: Layout,
  writerFor: (entry: TensorEntry, placement: Placement, file: string) => TensorWriter | Promise<TensorWriter>,
  onProgress?: (progress: LoadProgress) => void,
): Promise<void> {
  const files = await checkpointFiles(source);
  const sizes = await Promise.all(
    files.map((f) =>
      source.size(f).catch((error: Error) => {
        throw new Error(
          `${source.where}/${f}: cannot read the weights (${error.message.split(",")[0]}); a model folder holds model.safetensors or model.safetensors.index.json and its shards`,
        );
      }),
    ),
  );
  const total = sizes.reduce((a, b) => a + b, 0);
  let loaded = 0;
  const seen = new Set<string>();
  for (const file of files) {
    const where = `${source.where}/${file}`;
    let reported = 0;
    await readSafetensors(
      where,
      await source.stream(file),
      (entry) => {
        const placement = layout.place(entry.name);
        if (!placement) return null;
        if (entry.shape.join("x") !== placement.shape.join("x")) {
          throw new Error(
            `${where}: tensor ${entry.name} has shape [${entry.shape.join(",")}], config.json says [${placement.shape.join(",")}]`,
          );
        }
        seen.add(entry.name);
        return writerFor(entry, placement, file);
      },
      (n) => {
        loaded += n;
        // At most every 4 MiB, and at each file's end below.
        if (loaded - reported >= 4 << 20) {
          reported = loaded;
          onProgress?.({ loaded, total, file });
        }
      },
    );
    onProgress?.({ loaded, total, file });
  }
  const missing = layout.required.filter((name) => !seen.has(name));
  if (missing.length)
    throw new Error(
      `${source.where}: the checkpoint lacks ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ` and ${missing.length - 5} more` : ""}`,
    );
}
