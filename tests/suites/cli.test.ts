/**
 * `backtrack pin|unpin|test|suite` on an embedded database, run as `main(argv)` in this process
 * (tests/helpers/cli.ts): the "done when" (pin order-123, test under demo/v2 exits 1 and
 * its JUnit names the chargeCard divergence; demo/v1 exits 0), the reports, bad input (exit 2),
 * and a suite moved to another database through export and import.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "@/lib/store";
import type { PostgresStore } from "@/lib/store/postgres-store";
import { suiteStore } from "@/lib/suites/pins";
import { runMain } from "../helpers/cli";
import { embeddedFolder, tempFolder } from "../helpers/databases";
import { writeDemoRuns } from "../regression/helpers";

const cli = (args: string[]) => runMain(args, { BACKTRACK_CONFIG: undefined, DATABASE_URL: undefined });

describe("the suites CLI", () => {
  const folder = embeddedFolder();
  const other = embeddedFolder();
  const files = tempFolder("backtrack-suites-");
  let store: PostgresStore;
  let target: PostgresStore;

  beforeAll(async () => {
    store = await openStore({ url: folder.url });
    target = await openStore({ url: other.url });
    await writeDemoRuns(store, "order-123", "trip-42");
  }, 120_000);
  afterAll(async () => {
    await store.close();
    await target.close();
    folder.remove();
    other.remove();
    files.remove();
  });

  it("pins order-123; test under demo/v2 exits 1 with the chargeCard divergence in JUnit and Markdown, demo/v1 exits 0", async () => {
    const pinned = await cli(["pin", "order-123", "--suite", "smoke", "--note", "the $500 charge", "--by", "ada", "--db", folder.url]);
    expect(pinned).toMatchObject({ code: 0, stdout: "pinned order-123 in suite smoke\n", stderr: "" });
    const junit = join(files.path, "out.xml");
    const markdown = join(files.path, "out.md");
    const changed = await cli(["test", "--suite", "smoke", "--model", "demo/v2", "--junit", junit, "--markdown", markdown, "--base-url", "https://bt.example", "--db", folder.url]);
    expect(changed.stderr).toBe("");
    expect(changed.code).toBe(1);
    expect(changed.stdout).toMatch(
      /^CHANGED order-123: model step 0 calls chargeCard with amount 500 → 5000 \(https:\/\/bt\.example\/diff\?a=order-123&b=order-123%7Eb\w+&at=0\)$/m,
    );
    const xml = readFileSync(junit, "utf8");
    expect(xml).toContain('<testsuite name="smoke" tests="1" failures="1" errors="0"');
    expect(xml).toMatch(
      /<testcase classname="backtrack.smoke" name="order-123"[^>]*>\s*<failure message="model step 0 calls chargeCard with amount 500 → 5000 — https:\/\/bt\.example\/diff\?a=order-123&amp;b=order-123%7Eb\w+&amp;at=0" type="changed">/,
    );
    const summary = readFileSync(markdown, "utf8");
    expect(summary).toContain("### Backtrack suite `smoke` under `demo/v2`: 1 of 1 did not pass");
    expect(summary).toMatch(/\| `order-123` \| changed \| model step 0 calls chargeCard with amount 500 → 5000 \| \[row 0\]\(<https:\/\/bt\.example\/diff\?a=order-123/);

    const passed = await cli(["test", "--suite", "smoke", "--model", "demo/v1", "--junit", junit, "--db", folder.url]);
    expect(passed.code).toBe(0);
    expect(passed.stdout).toMatch(/^PASS {4}order-123$/m);
    expect(readFileSync(junit, "utf8")).toMatch(/<testcase classname="backtrack.smoke" name="order-123" time="[\d.]+"\/>/);
    expect((await suiteStore(store).batches("smoke")).map((batch) => batch.model)).toEqual(["demo/v1", "demo/v2"]);
  }, 120_000);

  it("prints JSON with each result's diff link, and exits 2 on bad input", async () => {
    const outcome = await cli(["test", "--suite", "smoke", "--recorded", "--concurrency", "2", "--json", "--db", folder.url]);
    expect(outcome.code).toBe(0);
    const report = JSON.parse(outcome.stdout) as { ok: boolean; counts: { pass: number }; results: Array<{ runId: string; diffLink: string }> };
    expect(report).toMatchObject({ ok: true, counts: { pass: 1 } });
    expect(report.results[0]?.diffLink).toMatch(/^\/diff\?a=order-123&b=order-123%7Eb\w+$/);
    for (const args of [
      ["test", "--suite", "smoke", "--model", "demo/v2", "--recorded"],
      ["test", "--suite", "nothing-pinned"],
      ["test", "--suite", "smoke", "--model", "demo/v9"],
      ["test", "--suite", "smoke", "--concurrency", "none"],
      ["test", "--suite", "smoke", "--base-url", "ftp://x"],
      ["pin", "no-such-run", "--suite", "smoke"],
      ["unpin", "trip-42", "--suite", "smoke"],
    ]) {
      const refused = await cli([...args, "--db", folder.url]);
      expect({ args, code: refused.code }).toEqual({ args, code: 2 });
      expect(refused.stderr).toMatch(/^backtrack: .+\n$/);
    }
  }, 120_000);

  it("moves a suite to another database with export and import, all or nothing", async () => {
    await cli(["pin", "trip-42", "--suite", "move", "--db", folder.url]);
    const exported = await cli(["suite", "export", "move", "--db", folder.url]);
    expect(exported.code).toBe(0);
    const file = join(files.path, "move.jsonl");
    writeFileSync(file, exported.stdout);
    const broken = join(files.path, "broken.jsonl");
    writeFileSync(broken, `${exported.stdout}{"runId":"x"\n`);
    const refused = await cli(["suite", "import", broken, "--db", other.url]);
    expect(refused.code).toBe(2);
    expect((await target.runs()).runs).toEqual([]);
    const imported = await cli(["suite", "import", file, "--as", "ci", "--json", "--db", other.url]);
    expect(imported.code).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ suite: "ci", pins: 1 });
    const tested = await cli(["test", "--suite", "ci", "--db", other.url]);
    expect(tested.code).toBe(0);
    expect(tested.stdout).toContain("PASS    trip-42");
  }, 120_000);

  it("export and replay take --filter: every matching root run, and bad filters exit 2", async () => {
    const billing = (await store.runs({ agent: "billing", parentRunId: null, limit: 500 })).runs.map((run) => run.runId).sort();
    expect(billing).toContain("order-123");
    const exported = await cli(["export", "--filter", "agent=billing", "--db", folder.url]);
    expect(exported.code).toBe(0);
    const runIds = new Set(
      exported.stdout
        .trim()
        .split("\n")
        .map((line) => (JSON.parse(line) as { runId: string }).runId),
    );
    expect([...runIds].sort()).toEqual(billing);
    const replayed = await cli(["replay", "--filter", "status=complete&agent=billing", "--model", "demo/v2", "--json", "--db", folder.url]);
    expect(replayed.code).toBe(0);
    const body = JSON.parse(replayed.stdout) as { model: string; replays: Array<{ runId: string; diff: { divergentAt: number | null } }> };
    expect(body.model).toBe("demo/v2");
    expect(body.replays.map((replay) => replay.runId).sort()).toEqual(billing);
    expect(body.replays.find((replay) => replay.runId === "order-123")?.diff.divergentAt).toBe(0);
    for (const args of [["export"], ["export", "order-123", "--filter", "agent=billing"], ["replay", "--filter", "colour=red"], ["export", "--filter", "status=lost"]]) {
      const refused = await cli([...args, "--db", folder.url]);
      expect({ args, code: refused.code }).toEqual({ args, code: 2 });
    }
  }, 120_000);
});
