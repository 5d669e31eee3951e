/** The library as another Node project uses it: the built package (exports + types) and the example. */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { openStore } from "@/lib/store";
import { serverUrl } from "../helpers/databases";

describe("the library from plain Node.js", () => {
  it("builds to dist/ and journals the example run into DATABASE_URL", async () => {
    execFileSync(process.execPath, ["scripts/build-lib.mjs"], { stdio: "pipe" });
    expect(existsSync("dist/index.js")).toBe(true);
    expect(existsSync("dist/types/lib/index.d.ts")).toBe(true);
    // The subpath entries resolve through "exports" and share one copy of each class with the main entry.
    const entries = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        'const main = await import("backtrack"); const testing = await import("backtrack/testing"); const demo = await import("backtrack/demo");' +
          "console.log(JSON.stringify({ memStore: typeof testing.MemStore, demoRegistry: typeof demo.demoRegistry, mainHasDemo: 'demoRegistry' in main," +
          " sameError: new testing.SimulatedCrashError(1, 'before', 'x') instanceof main.BacktrackError }));",
      ],
      { encoding: "utf8" },
    );
    expect(JSON.parse(entries)).toEqual({ memStore: "function", demoRegistry: "function", mainHasDemo: false, sameError: true });
    const output = execFileSync(process.execPath, ["examples/journal-a-run.mjs", "example-run-1"], {
      env: { ...process.env, DATABASE_URL: serverUrl() },
      encoding: "utf8",
    });
    expect(output).toContain("example-run-1: Order A-17 has shipped with DHL. (2 turns");
    expect(output).toContain("AssistantTurn → ToolCompleted → AssistantTurn");
    expect(output).toContain('n1["tool: lookupOrder"]');
    const store = await openStore({ url: serverUrl() });
    expect(await store.run("example-run-1")).toMatchObject({ agent: "support", status: "complete" });
    await store.close();
  });
});
