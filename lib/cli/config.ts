/**
 * The CLI's registry: the demo's agents and models, plus what the user registers in
 * backtrack.config.ts (or .mts, .mjs, .js) in the working directory, in BACKTRACK_CONFIG, or in
 * --config PATH. TypeScript configs load through tsx, which bin/backtrack.mjs registers. Only the
 * CLI loads files; the inspector's server bundle never imports this module.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Registry } from "../agent/registry";
import { demoRegistry } from "../demo/registry";
import { ConfigError } from "../journal/errors";
import { applyConfig } from "../regression/config";

const CONFIG_NAMES = ["backtrack.config.ts", "backtrack.config.mts", "backtrack.config.mjs", "backtrack.config.js"];

export function findConfig(explicit?: string, cwd = process.cwd()): string | undefined {
  const chosen = explicit ?? process.env.BACKTRACK_CONFIG;
  if (chosen) {
    const path = resolve(cwd, chosen);
    if (!existsSync(path)) throw new ConfigError(`the config file ${path} does not exist`);
    return path;
  }
  return CONFIG_NAMES.map((name) => resolve(cwd, name)).find((path) => existsSync(path));
}

export async function loadRegistry(explicit?: string): Promise<Registry> {
  const registry = demoRegistry();
  const path = findConfig(explicit);
  if (!path) return registry;
  let loaded: { default?: unknown; config?: unknown };
  try {
    loaded = (await import(pathToFileURL(path).href)) as typeof loaded;
  } catch (error) {
    throw new ConfigError(`cannot load ${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return applyConfig(registry, loaded.default ?? loaded.config, path);
}
