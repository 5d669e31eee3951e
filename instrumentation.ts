/** Opens the store (and the job runner) when the server starts, so that an embedded database is owned (and the demo written) before the first request. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getStore } = await import("./app/_server/store");
  const { jobRunner } = await import("./app/_server/jobs");
  // The job runner too: it marks the jobs a previous server process left unfinished as interrupted.
  await Promise.all([getStore(), jobRunner()]).catch((error: unknown) => {
    // The pages show what to check; the server keeps running.
    console.error(`backtrack: cannot open the database: ${error instanceof Error ? error.message : String(error)}`);
  });
}
