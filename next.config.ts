import type { NextConfig } from "next";
import { SECURITY_HEADERS } from "./app/_server/security-headers";

const config: NextConfig = {
  // PGlite ships WebAssembly and data files that must be loaded from node_modules at run time,
  // and postgres.js opens raw sockets: neither may be bundled. tsx loads the user's
  // backtrack.config.ts at run time (lib/config/file.ts): a loader, not a module to bundle.
  // piscina starts worker threads from its own files (and they load dist-workers/projection.mjs).
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "tsx", "piscina"],
  poweredByHeader: false,
  // `npm test` runs `npm run typecheck` (next typegen, then tsc over every file and the route
  // types) before it builds, and sets BACKTRACK_TYPECHECKED=1 for the build so that it does not
  // check the same program twice. Any other `next build` checks types itself.
  typescript: { ignoreBuildErrors: process.env.BACKTRACK_TYPECHECKED === "1" },
  // Turbopack's build cache speeds up the next build in this folder; a CI clone is built once and
  // thrown away, so there writing it (10-20 s at the end of the build) is time lost.
  experimental: {
    // Turbopack's build cache speeds up the next build in this folder; a CI clone is built once and
    // thrown away, so there writing it (10-20 s at the end of the build) is time lost.
    turbopackFileSystemCacheForBuild: !process.env.CI,
    // The proxy (proxy.ts) cuts request bodies at 10 MB by default and the route still runs. Let
    // bodies just over the import limit through (HTTP_IMPORT_LIMIT_BYTES, 64 MiB, in
    // lib/journal/import.ts), so that /api/import sees them whole and refuses them itself (413).
    proxyClientMaxBodySize: 64 * 1024 * 1024 + 1024 * 1024,
  },
  reactStrictMode: true,
  // On every response, static files and error pages included (app/_server/security-headers.ts).
  headers: async () => [{ source: "/:path*", headers: [...SECURITY_HEADERS] }],
};

export default config;
