/**
 * Opens the store (and the job runner, with the registry of backtrack.config.ts) when the server
 * starts, so that an embedded database is owned (and the demo written) before the first request,
 * and a config that cannot load is reported at once. Starts the projection pool too, so that the
 * first cold request finds a worker ready (and a missing worker build is said at once).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getStore } = await import("./app/_server/store");
  const { jobRunner } = await import("./app/_server/jobs");
  const { accessSettings } = await import("./app/_server/access");
  const { projectionPool } = await import("./app/_server/pool");
  try {
    projectionPool();
  } catch (error) {
    // Cold builds answer 503 worker_unavailable with the same message; the server keeps running.
    console.error(`backtrack: ${error instanceof Error ? error.message : String(error)}`);
  }
  // The job runner too: it takes queued jobs, and queues again those of a server process that
  // died (a read-only inspector runs no jobs and leaves that to the servers and workers that do).
  const runner = accessSettings().readOnly ? Promise.resolve() : jobRunner();
  await Promise.all([getStore(), runner]).catch((error: unknown) => {
    // The pages show what to check; the server keeps running.
    console.error(`backtrack: cannot start: ${error instanceof Error ? error.message : String(error)}`);
  });
}
