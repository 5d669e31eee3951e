/** loadRegistry applies backtrack.config.* to the registry it is given, and adds nothing of the demo's. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Registry } from "@/lib/agent/registry";
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
