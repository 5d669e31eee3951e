/** loadRegistry applies backtrack.config.* to the registry it is given, and adds nothing of the demo's. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Registry } from "@/lib/agent/registry";
import { runScorer } from "@/lib/agent/scorers";
import { applyConfig } from "@/lib/config/config";
import { ConfigError } from "@/lib/journal/errors";
import { findConfig, loadRegistry } from "@/lib/config/file";
import { demoRegistry } from "@/lib/demo/registry";

const folders: string[] = [];
function folder(): string {
  const path = mkdtempSync(join(tmpdir(), "backtrack-config-"));
  folders.push(path);
  return path;
}

afterAll(() => {
  for (const path of folders) rmSync(path, { recursive: true, force: true });
});

const CONFIG = `export default {
  models: { "acme/fixed": { id: "ignored", async *stream() { yield { type: "finish", message: { role: "assistant", content: [] }, usage: { inputTokens: 0, outputTokens: 0 } }; } } },
  agents: [{ name: "refunds", create: () => { throw new Error("not driven here"); } }],
};`;

describe("loadRegistry", () => {
  it("returns the given registry untouched when there is no config file: no demo agents appear", async () => {
    const cwd = folder();
    const previous = process.env.BACKTRACK_CONFIG;
    delete process.env.BACKTRACK_CONFIG;
    try {
      const given = new Registry();
      const loaded = await loadRegistry(given, undefined, cwd);
      expect(loaded).toBe(given);
      expect(loaded.agentNames()).toEqual([]);
      expect(loaded.modelEntries()).toEqual([]);
      expect(findConfig(undefined, cwd)).toBeUndefined();
    } finally {
      if (previous !== undefined) process.env.BACKTRACK_CONFIG = previous;
    }
  });

  it("applies the file's models and agents to the given registry only", async () => {
    const cwd = folder();
    writeFileSync(join(cwd, "backtrack.config.mjs"), CONFIG);
    const own = await loadRegistry(new Registry(), undefined, cwd);
    expect(own.agentNames()).toEqual(["refunds"]);
    expect(own.modelEntries().map((entry) => entry.name)).toEqual(["acme/fixed"]);
    expect(own.hasAgent("billing")).toBe(false);

    // What the CLI and the server do: start from the demo's registry, then the file.
    const withDemo = await loadRegistry(demoRegistry(), undefined, cwd);
    expect(withDemo.hasAgent("billing")).toBe(true);
    expect(withDemo.hasAgent("refunds")).toBe(true);
  });
});

describe("scorers", () => {
  it("knows same-decisions out of the box and registers the config's scorers by name", async () => {
    const cwd = folder();
    writeFileSync(
      join(cwd, "backtrack.config.mjs"),
      `export default {
        scorers: {
          "no-refunds": (diff) => diff.divergentAt === null || diff.divergentAt > 3,
          strict: { description: "never passes", score: () => ({ pass: false, reason: "strict" }) },
        },
      };`,
    );
    const registry = await loadRegistry(new Registry(), undefined, cwd);
    expect(registry.scorerNames().sort()).toEqual(["no-refunds", "same-decisions", "strict"]);
    expect(await runScorer(registry.scorer("same-decisions"), { a: "x", b: "y", divergentAt: null })).toEqual({ pass: true, score: 1 });
    expect((await runScorer(registry.scorer("same-decisions"), { a: "x", b: "y", divergentAt: 2 })).pass).toBe(false);
    expect(await runScorer(registry.scorer("no-refunds"), { a: "x", b: "y", divergentAt: 2 })).toEqual({ pass: false });
    expect(await runScorer(registry.scorer("no-refunds"), { a: "x", b: "y", divergentAt: 5 })).toEqual({ pass: true });
    expect(registry.scorer("strict").description).toBe("never passes");
    expect(() => registry.scorer("missing")).toThrow(/no scorer named "missing" is registered \(known: same-decisions, no-refunds, strict\)/);
  });

  it("refuses a scorer that is not a function, and a scorer answer that is not a verdict", async () => {
    expect(() => applyConfig(new Registry(), { scorers: { broken: 3 } })).toThrow(ConfigError);
    const registry = applyConfig(new Registry(), { scorers: { odd: () => "yes" } });
    await expect(runScorer(registry.scorer("odd"), { a: "x", b: "y", divergentAt: null })).rejects.toThrow(/returned "yes"/);
  });
});
