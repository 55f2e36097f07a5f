import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // These load WebAssembly or native code from their own folders at run time; bundling breaks that.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "@prisma/adapter-pg", "pg"],
  // WGSL kernels (lib/gpu) are imported as text; the replay's scoring worker bundles them.
  turbopack: { rules: { "*.wgsl": { type: "raw" } } },
  // `npm run studio` builds with COLBENCH_BUILD_SKIP_TYPES=1: a type check changes nothing the studio
  // runs, and it is a third of the build (10.9 of 33.9 s); `npm test` and `npm run typecheck` still check types.
  typescript: { ignoreBuildErrors: process.env.COLBENCH_BUILD_SKIP_TYPES === "1" },
  // A first build (scripts/setup.sh on a fresh clone) writes no Turbopack cache: nothing has read it yet,
  // and writing it was 4 of the 30 s before the first page on a fresh machine. Later builds write and read it.
  experimental: { turbopackFileSystemCacheForBuild: process.env.COLBENCH_BUILD_NO_CACHE !== "1" },
  poweredByHeader: false,
  // The studio does not gzip its own answers: on loopback and a lab network compression is work with
  // nothing to gain, and it was a tenth of the main thread's time per label plus a zlib stream per
  // answer in the thread pool (bench/labelling.ts). Over a wide network the reverse proxy compresses
  // (deploy/Caddyfile's `encode`), off the studio's event loop.
  compress: false,
  // No image optimizer: it fetches the URL it is given from inside the server, past the access gate
  // and with nobody's cookies, and the studio's images (renders, placeholders) need no resizing.
  // The gate answers /_next/image with 404 as well (lib/access/http.ts).
  images: { unoptimized: true },
  typedRoutes: false,
};

export default nextConfig;
