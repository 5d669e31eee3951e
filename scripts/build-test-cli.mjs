// Bundles, for the tests that spawn real processes, the CLI (lib/cli/main.ts; runCli in
// tests/helpers/processes.ts) and the child scripts the tests start (scripts/test-children.json;
// startTs and childArgs in processes.ts), each into one ES module. Through tsx each start costs about 1.1 s of
// CPU compiling and resolving TypeScript; a bundle starts in about 0.3-0.5 s, and the unit suite
// starts these dozens of times. The vitest global setup runs this before every run, so the bundles
// are never older than the source. They live under node_modules/.cache inside the checkout: the
// code finds drizzle/ and the app by walking up from its own file, and its dependencies stay
// external, resolved from the same node_modules as bin/backtrack.mjs's.
import { readFileSync } from "node:fs";
import { build } from "esbuild";

export const TEST_CLI = "node_modules/.cache/backtrack-test-cli/backtrack.mjs";
// Every TypeScript script a unit test spawns as a process, and where each bundle goes: its path
// under `dir`, ending in .mjs. A script not listed there runs through tsx (childArgs).
const children = JSON.parse(readFileSync("scripts/test-children.json", "utf8"));

const common = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
};

await Promise.all([
  build({
    ...common,
    stdin: { contents: 'import { run } from "./lib/cli/main.ts"; await run(process.argv.slice(2));', resolveDir: process.cwd(), loader: "ts", sourcefile: "test-cli.ts" },
    outfile: TEST_CLI,
  }),
  build({ ...common, entryPoints: children.scripts, outbase: ".", outdir: children.dir, outExtension: { ".js": ".mjs" } }),
]);
