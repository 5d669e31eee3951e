import { configDefaults, defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

/**
 * The soak bounds a takeover in wall time (lease TTL + 1 s); on two cores another test file
 * running beside it can stretch that, so it runs alone, after the rest (vitest.soak.config.ts).
 */
export const SOAK = "tests/recovery/soak.test.ts";
/** The fleet test serves the built inspector: it runs after the build (vitest.fleet.config.ts). */
export const FLEET = "tests/fleet/fleet.test.ts";
/** The soak's and the fleet's global setup: the server's databases, no embedded template (neither opens one). */
export const SERVER_ONLY_SETUP = ["tests/helpers/global-setup-server.ts"];

export const base = {
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  test: {
    include: ["tests/**/*.test.ts"],
    exclude: [...configDefaults.exclude, SOAK, FLEET],
    environment: "node" as const,
    globalSetup: ["tests/helpers/global-setup.ts"],
    pool: "forks" as const,
    // Two cores here: more workers only add contention. PGlite instances are costly (1-5 s each).
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
};

export default defineConfig(base);
