import type { NextConfig } from "next";
import { SECURITY_HEADERS } from "./app/_server/security-headers";

const config: NextConfig = {
  // PGlite ships WebAssembly and data files that must be loaded from node_modules at run time,
  // and postgres.js opens raw sockets: neither may be bundled. tsx loads the user's
  // backtrack.config.ts at run time (lib/config/file.ts): a loader, not a module to bundle.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "tsx"],
  poweredByHeader: false,
  reactStrictMode: true,
  // On every response, static files and error pages included (app/_server/security-headers.ts).
  headers: async () => [{ source: "/:path*", headers: [...SECURITY_HEADERS] }],
};

export default config;
