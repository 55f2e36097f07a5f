import type { Layout, Placement } from "./layout";
import type { TensorEntry, TensorWriter } from "./safetensors";
import { ElementChunks, FORMAT_OF } from "./tensor-bytes";

// The CPU path's weights: every layout group as f32, decoded as the bytes stream in.

export class CpuWeightStore {
  readonly groups = new Map<string, Float32Array>();

  constructor(private readonly layout: Layout) {}

  writerFor(entry: TensorEntry, placement: Placement): TensorWriter {
    let group = this.groups.get(placement.group);
    if (!group) {
      group = new Float32Array(this.layout.groups.get(placement.group)!);
      this.groups.set(placement.group, group);
    }
    const target = group;
    const chunks = new ElementChunks(FORMAT_OF[entry.dtype], "f32");
    let element = placement.at;
    return {
      write(raw) {
        const bytes = chunks.push(raw);
        const copy = new Uint8Array(bytes.byteLength);
        copy.set(bytes);
        const values = new Float32Array(copy.buffer);
        target.set(values, element);
        element += values.length;
      },
      end() {
        chunks.finish(entry.name);
      },
    };
  }

  get(name: string): Float32Array {
    const group = this.groups.get(name);
    if (!group) throw new Error(`weights ${name} were not loaded`);
    return group;
  }
}
