import path from "node:path";
import { defineConfig } from "prisma/config";

// Prisma's CLI downloads a native schema engine on every command. Machines without a route to Prisma's
// binary host cannot, and `generate` only checks that the path exists; migrations here run through the
// WebAssembly engine (scripts/db.ts). `??=` leaves a user with internet (or their own engine) unaffected.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.resolve("package.json");

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
