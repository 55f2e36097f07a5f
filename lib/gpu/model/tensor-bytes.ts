import { decodeWeights, encodeWeights, type WeightFormat } from "../weight-format";
import type { Dtype } from "./safetensors";

// Chunks of a tensor's bytes as they arrive from a stream, cut to whole elements and, where a group
// keeps another format than the tensor, converted on the way.

export const FORMAT_OF: Record<Dtype, WeightFormat> = { F32: "f32", F16: "f16", BF16: "bf16" };

export class ElementChunks {
  private carry = new Uint8Array(0);
  readonly bytesPer: number;

  constructor(
    private readonly from: WeightFormat,
    private readonly to: WeightFormat,
  ) {
    this.bytesPer = from === "f32" ? 4 : 2;
  }

  /** Whole elements of `bytes` (with what was left over before), in the target format. */
  push(bytes: Uint8Array): Uint8Array {
    let data = bytes;
    if (this.carry.length) {
      data = new Uint8Array(this.carry.length + bytes.length);
      data.set(this.carry);
      data.set(bytes, this.carry.length);
    }
    const whole = data.length - (data.length % this.bytesPer);
    this.carry = data.slice(whole);
    const elements = data.subarray(0, whole);
    if (this.from === this.to) return elements;
    return encodeWeights(decodeWeights(elements, this.from), this.to);
  }

  finish(what: string): void {
    if (this.carry.length) throw new Error(`${what}: its byte length is not a whole number of elements`);
  }
}
