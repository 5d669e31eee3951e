// Builds the library for other Node projects: one ESM bundle (dependencies stay external) and
// type declarations. `package.json` "exports" points at both.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { build } from "esbuild";

const require = createRequire(import.meta.url);
rmSync("dist", { recursive: true, force: true });
await build({
  entryPoints: ["lib/index.ts"],
  outfile: "dist/index.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.lib.json"], { stdio: "inherit" });
console.log("built dist/index.js and dist/types/");
