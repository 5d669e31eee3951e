import type { NextConfig } from "next";

const config: NextConfig = {
  // PGlite ships WebAssembly and data files that must be loaded from node_modules at run time,
  // and postgres.js opens raw sockets: neither may be bundled. tsx loads the user's
  // backtrack.config.ts at run time (lib/config/file.ts): a loader, not a module to bundle.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "tsx"],
  poweredByHeader: false,
  reactStrictMode: true,
};

export default config;
