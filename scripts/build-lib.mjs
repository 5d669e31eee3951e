// Builds the library for other Node projects: three ESM entries (`backtrack`, `backtrack/testing`,
// `backtrack/demo`) that share their common code through chunks, so each class exists once
// whichever entries a program imports (dependencies stay external), and type declarations.
// `package.json` "exports" points at both.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { build } from "esbuild";

const require = createRequire(import.meta.url);
rmSync("dist", { recursive: true, force: true });
await build({
  entryPoints: { index: "lib/index.ts", testing: "lib/testing.ts", demo: "lib/demo/index.ts" },
  outdir: "dist",
  chunkNames: "chunks/[name]-[hash]",
  splitting: true,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.lib.json"], { stdio: "inherit" });
console.log("built dist/index.js, dist/testing.js, dist/demo.js and dist/types/");
