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
  // `npm run studio` builds with COLBENCH_BUILD_SKIP_TYPES=1: a type check changes nothing the studio
  // runs, and it is the build's longest step; `npm test` and `npm run typecheck` still check types.
  typescript: { ignoreBuildErrors: process.env.COLBENCH_BUILD_SKIP_TYPES === "1" },
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
