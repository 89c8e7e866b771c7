/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Loaded at run time from node_modules: PGlite and the schema engine ship .wasm/.data files that must not be
  // bundled, and pg has optional native bits.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "@prisma/adapter-pg",
    "@prisma/driver-adapter-utils",
    "@prisma/schema-engine-wasm",
    "pg",
    "pyodide",
  ],
  typedRoutes: false,
  experimental: {
    // proxy.ts runs on API paths (it answers undecodable paths with a JSON 400); Next then buffers request bodies up
    // to this size and would cut longer ones. Above the largest documented body (12 MiB evaluation uploads); a larger
    // body still gets 413 from its Content-Length.
    proxyClientMaxBodySize: 16 * 1024 * 1024,
  },
  // Parallel work on one checkout (several developers' builds at once) can keep separate build folders.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // Only for such parallel builds of work in progress; `npm test` and CI always type-check.
  typescript: { ignoreBuildErrors: process.env.NEXT_IGNORE_TS_ERRORS === "1" },
};

export default nextConfig;
