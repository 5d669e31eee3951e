/**
 * Finding and loading backtrack.config.ts (or .mts, .mjs, .js): what the user registers, applied to
 * a registry the caller passes in. The library never adds the demo's agents: the CLI and the
 * inspector's server pass the demo registry, so a replay from either sees the same registry. The file is imported through tsx's scoped loader (`tsImport`): it works
 * for TypeScript and JavaScript alike, in a process that registered tsx (the CLI) and in one that
 * did not (the Next.js server, where tsx stays an external package, never bundled).
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Registry } from "../agent/registry";
import { ConfigError } from "../journal/errors";
import { applyConfig } from "./config";

const CONFIG_NAMES = ["backtrack.config.ts", "backtrack.config.mts", "backtrack.config.mjs", "backtrack.config.js"];

/** The config file: `explicit`, else BACKTRACK_CONFIG, else the first of CONFIG_NAMES in `cwd`; undefined when none. */
export function findConfig(explicit?: string, cwd = process.cwd()): string | undefined {
  const chosen = explicit ?? process.env.BACKTRACK_CONFIG;
  if (chosen) {
    const path = resolve(cwd, chosen);
    // turbopackIgnore: the file is the user's, found at run time; the server's bundle must not trace the project for it.
    if (!existsSync(/* turbopackIgnore: true */ path)) throw new ConfigError(`the config file ${path} does not exist`);
    return path;
  }
  return CONFIG_NAMES.map((name) => resolve(cwd, name)).find((path) => existsSync(/* turbopackIgnore: true */ path));
}

/** `registry` with the config file's models and agents applied (unchanged without a file). */
export async function loadRegistry(registry: Registry, explicit?: string, cwd = process.cwd()): Promise<Registry> {
  const path = findConfig(explicit, cwd);
  if (!path) return registry;
  let loaded: { default?: unknown; config?: unknown };
  try {
    // Loaded only when there is a file: a server or CLI without a config never loads tsx's loader.
    const { tsImport } = await import("tsx/esm/api");
    const url = pathToFileURL(path).href;
    loaded = (await tsImport(url, url)) as typeof loaded;
  } catch (error) {
    throw new ConfigError(`cannot load ${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return applyConfig(registry, loaded.default ?? loaded.config, path);
}
