/**
 * Issue 14 part 3: a run exported as OTLP (GenAI attributes, secrets redacted) and ingested into
 * a fresh database is the same run to diffRuns; `backtrack export --format otlp` prints it and
 * `--otlp-endpoint URL --header K=V` pushes it to a collector.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeDemo } from "@/lib/demo/seed";
import { importRuns } from "@/lib/journal/import";
import { toJsonl } from "@/lib/journal/jsonl";
import type { Journal } from "@/lib/journal/ports";
import { exportRunOtlp } from "@/lib/otel/export";
import { ingestOtlp } from "@/lib/otel/ingest";
import { encodeResponse } from "@/lib/otel/response";
import { diffRuns } from "@/lib/regression/diff-runs";
import { MemStore } from "@/lib/journal/memory-store";
import { runMain } from "../helpers/cli";
import { embeddedFolder, STORE_KINDS } from "../helpers/databases";
import { startCollector } from "./clients";

/** The export with its run id renamed, so both runs can sit in one database for diffRuns. */
function renamed(request: unknown, runId: string): Buffer {
  return Buffer.from(JSON.stringify(request).replace(/("key":"backtrack\.run_id","value":\{"stringValue":")[^"]*"/, `$1${runId}"`));
}

describe.each(STORE_KINDS)("OTLP export round trip: $name", (kind) => {
  let source: Journal & { close(): Promise<void> };
  let fresh: Journal & { close(): Promise<void> };
  beforeAll(async () => {
    source = await kind.open();
    fresh = await kind.open();
    await writeDemo(source);
  });
  afterAll(async () => {
    await source.close();
    await fresh.close();
  });

  it.each(["order-123", "order-404", "trip-42"])("exports %s, ingests it into a fresh database, and diffRuns finds no divergence", async (runId) => {
    const request = await exportRunOtlp(source, runId);
    const result = await ingestOtlp(fresh, { body: renamed(request, `${runId}-otel`), contentType: "application/json" });
    expect(result.rejected).toBe(0);
    await importRuns(fresh, toJsonl(await source.history(runId)));
    const diff = await diffRuns(fresh, runId, `${runId}-otel`);
    expect(diff.divergentAt).toBeNull();
    expect(diff.summary.same).toBeGreaterThan(0);
    expect((await fresh.run(`${runId}-otel`))?.origin).toBe("otel");
  });
});

describe("backtrack export --format otlp", () => {
  const folder = embeddedFolder();
  beforeAll(async () => {
    const { openStore } = await import("@/lib/store");
    const store = await openStore({ url: folder.url });
    await writeDemo(store);
    await store.append({ runId: "secret-run", name: "run:start", kind: "header", payload: { input: "use api_key=sk-live-0123456789abcdef", agent: "a", model: "m", tools: [] } });
    await store.close();
  });
  afterAll(() => folder.remove());

  it("prints OTLP JSON with GenAI attributes and no secret", async () => {
    const outcome = await runMain(["export", "secret-run", "--format", "otlp", "--db", folder.url]);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain('"gen_ai.operation.name"');
    expect(outcome.stdout).not.toContain("sk-live-0123456789abcdef");
    const parsed = JSON.parse(outcome.stdout) as { resourceSpans: unknown[] };
    expect(parsed.resourceSpans).toHaveLength(1);
  });

  it("pushes the run to an OTLP endpoint with the headers given", async () => {
    const target = new MemStore();
    const collector = await startCollector(async (request) => encodeResponse(await ingestOtlp(target, request), request.contentType));
    const outcome = await runMain(["export", "order-123", "--otlp-endpoint", collector.url, "--header", "Authorization=Bearer ingest-secret", "--db", folder.url]);
    await collector.close();
    expect(outcome).toMatchObject({ code: 0, stdout: expect.stringContaining("pushed run order-123") });
    expect(collector.requests[0]?.authorization).toBe("Bearer ingest-secret");
    expect(await target.run("order-123")).toMatchObject({ origin: "otel", status: "complete" });
  });

  it("refuses a bad format or header, and an unreachable endpoint, with exit 2", async () => {
    expect((await runMain(["export", "order-123", "--format", "xml", "--db", folder.url])).code).toBe(2);
    expect((await runMain(["export", "order-123", "--otlp-endpoint", "http://127.0.0.1:9/v1/traces", "--header", "nope", "--db", folder.url])).code).toBe(2);
    const unreachable = await runMain(["export", "order-123", "--otlp-endpoint", "http://127.0.0.1:9/v1/traces", "--db", folder.url]);
    expect(unreachable).toMatchObject({ code: 2, stderr: expect.stringContaining("cannot reach the collector") });
  });
});
