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
    // OpenTelemetry (server/telemetry/otel.ts, loaded only when an OTLP endpoint is set): one copy of the API for
    // Next.js's own spans and ours, and the SDK and Prisma's instrumentation (which hooks require) left unbundled
    "@opentelemetry/api",
    "@opentelemetry/context-async-hooks",
    "@opentelemetry/core",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/resources",
    "@opentelemetry/sdk-trace",
    "@opentelemetry/semantic-conventions",
    "@prisma/instrumentation",
  ],
  typedRoutes: false,
  // Turbopack's build cache (.next/cache/turbopack, on by default in Next 16.4) speeds a rebuild on the same checkout,
  // but writing it cost a cold build 22 s of 116 (190 CPU s against 148 without). CI builds fresh clones that never
  // read it back (CI=true, .ci/run), nor does the image build (Dockerfile), so there it is off.
  experimental: { turbopackFileSystemCacheForBuild: !process.env.CI },
  // No `experimental.proxyClientMaxBodySize`: proxy.ts runs on pages only, so Next never buffers an API request's body
  // (it reads a whole body before running proxy.ts); the routes read bodies themselves, after authentication, up to
  // their limits (server/core/body.ts).
  // The container image (Dockerfile) builds with FLOWBENCH_STANDALONE=1: Next's standalone output, a `server.js` with
  // only the node_modules files the server traces to. Builds on the host (`npm start`, `npm test`) keep the ordinary
  // output, which `next start` serves.
  ...(process.env.FLOWBENCH_STANDALONE === "1" ? { output: "standalone" } : {}),
  // Parallel work on one checkout (several developers' builds at once) can keep separate build folders.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // Only for such parallel builds of work in progress; `npm test` and CI always type-check.
  typescript: { ignoreBuildErrors: process.env.NEXT_IGNORE_TS_ERRORS === "1" },
};

export default nextConfig;
