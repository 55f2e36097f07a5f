import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // These load WebAssembly or native code from their own folders at run time; bundling breaks that.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "@prisma/adapter-pg",
    "pg",
  ],
  // WGSL kernels (lib/gpu) are imported as text; the replay's scoring worker bundles them.
  turbopack: { rules: { "*.wgsl": { type: "raw" } } },
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
