/**
 * Switches that give headless Chromium a WebGPU adapter on a machine without a GPU (SwiftShader's
 * Vulkan, a fallback adapter): Linux Chromium hides WebGPU without --enable-unsafe-webgpu.
 * The tests and the studio's e2e check add them to the project's usual offline switches.
 */
export const WEBGPU_CHROMIUM_FLAGS = [
  "--enable-unsafe-webgpu",
  "--enable-features=Vulkan",
  "--use-vulkan=swiftshader",
  "--use-angle=swiftshader",
  "--use-webgpu-adapter=swiftshader",
];
