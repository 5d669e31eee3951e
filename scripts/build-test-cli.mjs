// Bundles the CLI (lib/cli/main.ts) into one ES module for the tests that spawn it as a process
// (runCli in tests/helpers/processes.ts). bin/backtrack.mjs runs the same source through tsx,
// which costs about 1.1 s of CPU a start; the bundle starts in about 0.5 s, and the unit suite
// starts the CLI dozens of times. The vitest global setup runs this before every run, so the
// bundle is never older than the source. It lives under node_modules/.cache inside the checkout:
// the CLI finds drizzle/ and the app by walking up from its own file, and its dependencies stay
// external, resolved from the same node_modules as bin/backtrack.mjs's.
import { build } from "esbuild";

export const TEST_CLI = "node_modules/.cache/backtrack-test-cli/backtrack.mjs";

await build({
  stdin: { contents: 'import { run } from "./lib/cli/main.ts"; await run(process.argv.slice(2));', resolveDir: process.cwd(), loader: "ts", sourcefile: "test-cli.ts" },
  outfile: TEST_CLI,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
