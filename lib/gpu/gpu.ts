// A GPUDevice with what every kernel needs: storage buffers, uploads, read-backs, pipelines cached by
// kernel and override constants, and batches of dispatches submitted together. The same code runs on
// Chromium's navigator.gpu and on Dawn in Node; only opening the adapter differs (open-browser.ts,
// node/open.ts).

// The WebGPU flag values (the spec fixes them); Node's dawn does not put GPUBufferUsage on globalThis.
export const Usage = { MAP_READ: 1, COPY_SRC: 4, COPY_DST: 8, UNIFORM: 64, STORAGE: 128 } as const;
const MAP_READ_MODE = 1;
const MAX_GROUPS = 65535;

export interface GpuInfo {
  /** The graphics API under WebGPU: "vulkan" or "opengles" through Dawn in Node, "browser" for a page's navigator.gpu. */
  graphicsApi: string;
  vendor: string;
  architecture: string;
  description: string;
  /** A software or fallback adapter (SwiftShader, llvmpipe). */
  software: boolean;
  /** The adapter has `shader-f16` and the device was asked for it. */
  f16: boolean;
}

export class NoAdapterError extends Error {}

/** A 32-bit float in a uniform block (plain numbers are written as 32-bit integers). */
export class F32 {
  constructor(readonly value: number) {}
}
export const f32 = (value: number) => new F32(value);

export type Binding = GPUBuffer | { buffer: GPUBuffer; offset: number; size: number };

/** Workgroup counts for `n` groups: beyond 65535, spread over y (kernels use x + y * num_workgroups.x). */
export function spread(n: number): [number, number, number] {
  if (n <= MAX_GROUPS) return [Math.max(1, n), 1, 1];
  return [MAX_GROUPS, Math.ceil(n / MAX_GROUPS), 1];
}

const LIMITS_WANTED = [
  "maxStorageBufferBindingSize",
  "maxBufferSize",
  "maxComputeWorkgroupStorageSize",
  "maxStorageBuffersPerShaderStage",
  "maxComputeInvocationsPerWorkgroup",
  "maxComputeWorkgroupSizeX",
] as const;

/** A device asked for the adapter's largest buffers and `shader-f16` where it has it. */
export async function deviceFor(adapter: GPUAdapter, graphicsApi: string): Promise<Gpu> {
  const requiredLimits: Record<string, number> = {};
  for (const name of LIMITS_WANTED) requiredLimits[name] = adapter.limits[name];
  const f16 = adapter.features.has("shader-f16");
  const device = await adapter.requestDevice({ requiredLimits, requiredFeatures: f16 ? ["shader-f16"] : [] });
  const info = adapter.info;
  return new Gpu(device, {
    graphicsApi,
    vendor: info.vendor,
    architecture: info.architecture,
    description: info.description,
    software:
      Boolean((info as { isFallbackAdapter?: boolean }).isFallbackAdapter) ||
      /swiftshader|llvmpipe|lavapipe|softpipe/i.test(`${info.architecture} ${info.description} ${info.device}`),
    f16,
  });
}

export class Gpu {
  private readonly pipelines = new Map<string, GPUComputePipeline>();
  private readonly modules = new Map<string, GPUShaderModule>();
  private errors: string[] = [];

  constructor(
    readonly device: GPUDevice,
    readonly info: GpuInfo,
  ) {
    device.addEventListener("uncapturederror", (event) => {
      this.errors.push(event.error.message);
    });
  }

  get limits(): GPUSupportedLimits {
    return this.device.limits;
  }

  /** Throws the validation errors the device reported since the last check. */
  check(where: string): void {
    if (!this.errors.length) return;
    const messages = this.errors.splice(0);
    throw new Error(`WebGPU (${where}): ${messages.join("; ")}`);
  }

  /** A storage buffer of at least `byteLength` bytes (rounded up to 4; zero-filled). */
  storage(byteLength: number, label?: string): GPUBuffer {
    const size = Math.max(4, Math.ceil(byteLength / 4) * 4);
    if (size > this.limits.maxBufferSize)
      throw new Error(
        `${label ?? "buffer"}: ${size} bytes is more than this adapter's largest buffer (${this.limits.maxBufferSize})`,
      );
    return this.device.createBuffer({ size, usage: Usage.STORAGE | Usage.COPY_SRC | Usage.COPY_DST, label });
  }

  /** A storage buffer holding `data` (padded to a multiple of 4 bytes). */
  upload(data: ArrayBufferView, label?: string): GPUBuffer {
    const buffer = this.storage(data.byteLength, label);
    this.write(buffer, 0, data);
    return buffer;
  }

  write(buffer: GPUBuffer, offset: number, data: ArrayBufferView): void {
    const bytes = new Uint8Array(data.buffer as ArrayBuffer, data.byteOffset, data.byteLength);
    const whole = bytes.byteLength & ~3;
    if (whole) this.device.queue.writeBuffer(buffer, offset, bytes, 0, whole);
    if (whole < bytes.byteLength) {
      // writeBuffer moves whole 4-byte words: the tail goes in a zero-padded word.
      const tail = new Uint8Array(4);
      tail.set(bytes.subarray(whole));
      this.device.queue.writeBuffer(buffer, offset + whole, tail);
    }
  }

  async read(buffer: GPUBuffer, byteLength = buffer.size, offset = 0): Promise<ArrayBuffer> {
    const size = Math.ceil(byteLength / 4) * 4;
    const staging = this.device.createBuffer({ size, usage: Usage.MAP_READ | Usage.COPY_DST });
    const encoder = this.device.createCommandEncoder();
    encoder.copyBufferToBuffer(buffer, offset, staging, 0, size);
    this.device.queue.submit([encoder.finish()]);
    await staging.mapAsync(MAP_READ_MODE);
    const copy = staging.getMappedRange().slice(0, byteLength);
    staging.unmap();
    staging.destroy();
    this.check("read");
    return copy;
  }

  async readF32(buffer: GPUBuffer, count: number, offset = 0): Promise<Float32Array> {
    return new Float32Array(await this.read(buffer, count * 4, offset));
  }

  /** The compute pipeline of `source`'s `main`, with these override constants (cached). */
  kernel(name: string, source: string, constants: Record<string, number> = {}): GPUComputePipeline {
    const key = `${name}|${JSON.stringify(constants)}`;
    let pipeline = this.pipelines.get(key);
    if (!pipeline) {
      let module = this.modules.get(name);
      if (!module) {
        module = this.device.createShaderModule({ code: source, label: name });
        this.modules.set(name, module);
      }
      pipeline = this.device.createComputePipeline({
        layout: "auto",
        compute: { module, entryPoint: "main", constants },
        label: key,
      });
      this.pipelines.set(key, pipeline);
    }
    return pipeline;
  }

  batch(): Batch {
    return new Batch(this);
  }

  /** Waits until every submitted batch is done. */
  async idle(): Promise<void> {
    await this.device.queue.onSubmittedWorkDone();
    this.check("idle");
  }

  destroy(): void {
    this.device.destroy();
  }
}

/** Dispatches recorded into one command encoder and submitted at once. */
export class Batch {
  private readonly encoder: GPUCommandEncoder;
  private readonly uniforms: GPUBuffer[] = [];
  private pass: GPUComputePassEncoder | null = null;

  constructor(private readonly gpu: Gpu) {
    this.encoder = gpu.device.createCommandEncoder();
  }

  /**
   * One dispatch: binding 0 is the uniform block made of `params` (when given), the buffers follow
   * at bindings 1, 2, … in order.
   */
  dispatch(
    pipeline: GPUComputePipeline,
    params: Array<number | F32> | null,
    buffers: Binding[],
    groups: [number, number, number],
  ): this {
    const entries: GPUBindGroupEntry[] = [];
    if (params) {
      const uniform = this.gpu.device.createBuffer({
        size: Math.max(16, Math.ceil((params.length * 4) / 16) * 16),
        usage: Usage.UNIFORM,
        mappedAtCreation: true,
      });
      const view = new DataView(uniform.getMappedRange());
      params.forEach((p, i) =>
        p instanceof F32
          ? view.setFloat32(i * 4, p.value, true)
          : p < 0
            ? view.setInt32(i * 4, p, true)
            : view.setUint32(i * 4, p, true),
      );
      uniform.unmap();
      this.uniforms.push(uniform);
      entries.push({ binding: 0, resource: { buffer: uniform } });
    }
    buffers.forEach((b, i) =>
      entries.push({ binding: i + 1, resource: b instanceof Object && "buffer" in b ? b : { buffer: b } }),
    );
    const bindGroup = this.gpu.device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries });
    this.pass ??= this.encoder.beginComputePass();
    this.pass.setPipeline(pipeline);
    this.pass.setBindGroup(0, bindGroup);
    this.pass.dispatchWorkgroups(groups[0], groups[1], groups[2]);
    return this;
  }

  copy(source: GPUBuffer, sourceOffset: number, target: GPUBuffer, targetOffset: number, size: number): this {
    this.endPass();
    this.encoder.copyBufferToBuffer(source, sourceOffset, target, targetOffset, size);
    return this;
  }

  submit(): void {
    this.endPass();
    this.gpu.device.queue.submit([this.encoder.finish()]);
    for (const u of this.uniforms) u.destroy();
  }

  private endPass(): void {
    this.pass?.end();
    this.pass = null;
  }
}
