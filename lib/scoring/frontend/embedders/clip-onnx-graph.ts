import onnxProto from "onnx-proto";
import type { onnx as Onnx } from "onnx-proto";
import type { ClipVisionModel } from "./clip-vision";

// onnx-proto is CommonJS whose one export is built at run time: Node's ESM loader sees only a default.
const { onnx } = onnxProto;

// CLIP's vision tower as an ONNX graph, built from the same weights the TypeScript reference loads
// (clip-vision.ts), encoded with onnx-proto (ONNX's own protobuf schema compiled for protobufjs).
// Input pixel_values [N, 3, S, S]; output image_embeds [N, E], L2-normalised. The batch is dynamic.
//
// The graph follows the reference step by step, so the two agree to float rounding: a stride-P
// convolution makes the patch embeddings; a zero token padded in front and one table added give the
// class token and positions (row 0 of the table is class + position 0, the very sum transformers
// computes); tokens are kept as a [N·T, H] matrix so every projection is one Gemm with the weights
// as stored ([out, in], transB); attention splits heads with reshapes; quick_gelu is x·σ(1.702x).

const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;
/** LayerNormalization is in the default domain from opset 17; ONNX IR 8 carries opset 17. */
export const CLIP_ONNX_OPSET = 17;
export const CLIP_ONNX_IR_VERSION = 8;

type Attr = Onnx.IAttributeProto;
const int = (name: string, i: number): Attr => ({ name, type: onnx.AttributeProto.AttributeType.INT, i });
const ints = (name: string, v: number[]): Attr => ({ name, type: onnx.AttributeProto.AttributeType.INTS, ints: v });
const float = (name: string, f: number): Attr => ({ name, type: onnx.AttributeProto.AttributeType.FLOAT, f });

class GraphBuilder {
  readonly nodes: Onnx.INodeProto[] = [];
  readonly initializers: Onnx.ITensorProto[] = [];
  private count = 0;

  /** A float32 constant (weights); little-endian raw bytes, as typed arrays are on every platform Node runs on here. */
  floats(name: string, dims: number[], data: Float32Array): string {
    if (data.length !== dims.reduce((a, b) => a * b, 1))
      throw new Error(`${name}: ${data.length} values for shape [${dims.join(",")}]`);
    this.initializers.push({
      name,
      dims,
      dataType: FLOAT,
      rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    });
    return name;
  }

  int64s(name: string, values: number[], dims: number[] = [values.length]): string {
    const data = BigInt64Array.from(values.map(BigInt));
    this.initializers.push({ name, dims, dataType: INT64, rawData: new Uint8Array(data.buffer) });
    return name;
  }

  op(type: string, inputs: string[], attributes: Attr[] = [], name?: string): string {
    const output = name ?? `${type.toLowerCase()}_${this.count++}`;
    this.nodes.push({ opType: type, input: inputs, output: [output], name: output, attribute: attributes });
    return output;
  }
}

function concatRows(...parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** The serialized ModelProto of a loaded CLIP vision tower. */
export function buildClipVisionOnnx(model: ClipVisionModel): Uint8Array {
  const {
    hiddenSize: H,
    intermediateSize: I,
    numHeads: heads,
    imageSize: S,
    patchSize: P,
    projectionDim: E,
    layerNormEps: eps,
  } = model.config;
  const grid = (S / P) ** 2;
  const T = grid + 1;
  const D = H / heads;
  const g = new GraphBuilder();

  const layerNorm = (x: string, prefix: string, affine: { weight: Float32Array; bias: Float32Array }) =>
    g.op(
      "LayerNormalization",
      [x, g.floats(`${prefix}.weight`, [H], affine.weight), g.floats(`${prefix}.bias`, [H], affine.bias)],
      [int("axis", -1), float("epsilon", eps)],
    );
  const gemm = (x: string, prefix: string, w: Float32Array, out: number, inp: number, bias?: Float32Array) =>
    g.op(
      "Gemm",
      [x, g.floats(`${prefix}.weight`, [out, inp], w), ...(bias ? [g.floats(`${prefix}.bias`, [out], bias)] : [])],
      [int("transB", 1)],
    );

  // Patches: [N, H, g, g] → [N, grid, H]; a zero token in front; class + positions added.
  let h = g.op(
    "Conv",
    ["pixel_values", g.floats("embeddings.patch_embedding.weight", [H, 3, P, P], model.patchEmbedding)],
    [ints("kernel_shape", [P, P]), ints("strides", [P, P])],
  );
  h = g.op("Reshape", [h, g.int64s("shape_patches", [0, H, -1])]);
  h = g.op("Transpose", [h], [ints("perm", [0, 2, 1])]);
  h = g.op("Pad", [h, g.int64s("pad_class_token", [0, 1, 0, 0, 0, 0])]);
  const table = new Float32Array(model.positionEmbedding);
  for (let i = 0; i < H; i++) table[i] = Math.fround(model.classEmbedding[i]! + model.positionEmbedding[i]!);
  h = g.op("Add", [h, g.floats("embeddings.class_and_positions", [1, T, H], table)]);
  h = g.op("Reshape", [h, g.int64s("shape_tokens", [-1, H])]);
  h = layerNorm(h, "pre_layrnorm", model.preLayerNorm);

  const qkvShape = g.int64s("shape_qkv", [-1, T, 3, heads, D]);
  const tokensShape = g.int64s("shape_tokens_flat", [-1, H]);
  const scale = g.floats("attention_scale", [], new Float32Array([D ** -0.5]));
  const geluAlpha = g.floats("quick_gelu_alpha", [], new Float32Array([1.702]));
  const pick = [0, 1, 2].map((i) => g.int64s(`index_${i}`, [i], []));

  model.layers.forEach((layer, l) => {
    const p = `encoder.layers.${l}`;
    const x = layerNorm(h, `${p}.layer_norm1`, layer.ln1);
    // One projection for q, k and v: their weights stacked by rows.
    const qkv = gemm(
      x,
      `${p}.self_attn.qkv_proj`,
      concatRows(layer.q.weight, layer.k.weight, layer.v.weight),
      3 * H,
      H,
      concatRows(layer.q.bias, layer.k.bias, layer.v.bias),
    );
    const split = g.op("Transpose", [g.op("Reshape", [qkv, qkvShape])], [ints("perm", [2, 0, 3, 1, 4])]); // [3, N, heads, T, D]
    const [q, k, v] = pick.map((index) => g.op("Gather", [split, index], [int("axis", 0)]));
    const scores = g.op("Mul", [g.op("MatMul", [q!, g.op("Transpose", [k!], [ints("perm", [0, 1, 3, 2])])]), scale]);
    const context = g.op("MatMul", [g.op("Softmax", [scores], [int("axis", -1)]), v!]); // [N, heads, T, D]
    const merged = g.op("Reshape", [g.op("Transpose", [context], [ints("perm", [0, 2, 1, 3])]), tokensShape]);
    h = g.op("Add", [h, gemm(merged, `${p}.self_attn.out_proj`, layer.out.weight, H, H, layer.out.bias)]);
    const y = layerNorm(h, `${p}.layer_norm2`, layer.ln2);
    const up = gemm(y, `${p}.mlp.fc1`, layer.fc1.weight, I, H, layer.fc1.bias);
    const act = g.op("Mul", [up, g.op("Sigmoid", [g.op("Mul", [up, geluAlpha])])]);
    h = g.op("Add", [h, gemm(act, `${p}.mlp.fc2`, layer.fc2.weight, H, I, layer.fc2.bias)]);
  });

  // The class token after the last layer, post-LayerNorm, projected, L2-normalised.
  const cls = g.op(
    "Gather",
    [g.op("Reshape", [h, g.int64s("shape_sequence", [-1, T, H])]), pick[0]!],
    [int("axis", 1)],
  );
  const pooled = layerNorm(cls, "post_layernorm", model.postLayerNorm);
  const projected = gemm(pooled, "visual_projection", model.projection, E, H);
  g.op("LpNormalization", [projected], [int("axis", 1), int("p", 2)], "image_embeds");

  const tensorType = (dims: Array<number | string>): Onnx.ITypeProto => ({
    tensorType: {
      elemType: FLOAT,
      shape: { dim: dims.map((d) => (typeof d === "number" ? { dimValue: d } : { dimParam: d })) },
    },
  });
  const modelProto = onnx.ModelProto.create({
    irVersion: CLIP_ONNX_IR_VERSION,
    opsetImport: [{ domain: "", version: CLIP_ONNX_OPSET }],
    producerName: "colbench-studio",
    producerVersion: "clip-vision-1",
    graph: {
      name: "clip_vision_with_projection",
      node: g.nodes,
      initializer: g.initializers,
      input: [{ name: "pixel_values", type: tensorType(["batch", 3, S, S]) }],
      output: [{ name: "image_embeds", type: tensorType(["batch", E]) }],
    },
  });
  return onnx.ModelProto.encode(modelProto).finish();
}
