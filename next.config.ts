import type { NextConfig } from "next";

const config: NextConfig = {
  // PGlite ships WebAssembly and data files that must be loaded from node_modules at run time,
  // and postgres.js opens raw sockets: neither may be bundled.
  serverExternalPackages: ["@electric-sql/pglite", "postgres"],
  poweredByHeader: false,
  reactStrictMode: true,
};

export default config;
