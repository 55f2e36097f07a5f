// WGSL kernels are imported as text (Node hook, Vitest plugin, Turbopack rule).
declare module "*.wgsl" {
  const source: string;
  export default source;
}
