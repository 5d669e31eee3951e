import type { NextConfig } from "next";

const config: NextConfig = {
  // PGlite ships WebAssembly and data files that must be loaded from node_modules at run time,
  // and postgres.js opens raw sockets: neither may be bundled. tsx loads the user's
  // backtrack.config.ts at run time (lib/config/file.ts): a loader, not a module to bundle.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "tsx"],
  poweredByHeader: false,
  experimental: {
    // The proxy (proxy.ts) cuts request bodies at 10 MB by default and the route still runs. Let
    // bodies just over the import limit through (HTTP_IMPORT_LIMIT_BYTES, 64 MiB, in
    // lib/journal/import.ts), so that /api/import sees them whole and refuses them itself (413).
    proxyClientMaxBodySize: 64 * 1024 * 1024 + 1024 * 1024,
  },
  reactStrictMode: true,
};

export default config;
