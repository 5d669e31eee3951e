// Builds the projection pool's worker (lib/pool/worker.ts) into one file, dist-workers/projection.mjs,
// with its dependencies inside: piscina loads it in each worker thread of a running inspector,
// whose Next.js bundle cannot hold it. `npm run build` (and so `backtrack start`) runs this after
// `next build`; the test setup runs it too. About a second.
import { build } from "esbuild";

await build({
  entryPoints: { projection: "lib/pool/worker.ts" },
  outdir: "dist-workers",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // Bundled CommonJS dependencies call require(): give the ES module one.
  banner: { js: "import { createRequire as __backtrackRequire } from 'node:module'; const require = __backtrackRequire(import.meta.url);" },
  sourcemap: true,
  logLevel: "warning",
});
