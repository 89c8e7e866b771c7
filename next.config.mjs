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
};

export default nextConfig;
