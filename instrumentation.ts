/**
 * Runs once when the server starts (next start and next dev): validates the environment, applies pending
 * migrations in-process (with the embedded database this process owns the PGlite folder, so nothing else may
 * open it), and makes sure a first user can sign in.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return; // never touch the database while building
  const { startServer } = await import("./server/startup");
  await startServer();
}
