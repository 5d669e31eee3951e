import type { Metadata } from "next";
import { connection } from "next/server";
import { z } from "zod";
import { accessSettings } from "@/app/_server/access";
import { cachedDiff, type LoadedDiff } from "@/app/_server/diffs";
import { serverRegistry } from "@/app/_server/registry";
import { previewMetadata, serverSecretTest } from "@/app/_server/link-preview";
import { runOutline } from "@/app/_server/outlines";
import { pageStore } from "@/app/_server/page-store";
import { redacted } from "@/app/_server/redaction";
import { idParam } from "@/app/_server/url-input";
import { DatabaseProblemView } from "@/components/database-problem";
import { DiffPicker } from "@/components/diff/diff-picker";
import { DiffView } from "@/components/diff/diff-view";
import { DIFF_PAGE } from "@/components/page-sizes";
import { initialRow, type ForkLineageView } from "@/lib/inspect/diff-view";
import { diffEntries, diffEntryAt } from "@/lib/inspect/packed-diff";
import type { Journal } from "@/lib/journal/ports";
import type { RunSummary } from "@/lib/journal/types";
import { diffPreview } from "@/lib/inspect/link-preview";
import { parseSecretKeys } from "@/lib/inspect/redact";
import { isBacktrackError } from "@/lib/journal/errors";

/** Runs up to this many records ship their outline (the flowchart's nodes) with the page; larger ones fetch it after. */
const INLINE_OUTLINE = 2_000;
const PICKER_RUNS = 100;

const single = z.preprocess((value) => (Array.isArray(value) ? value[0] : value), z.string().optional());
/** Bad values are dropped rather than refused: a page shows what it can (the picker, the first divergence). */
const pageQuery = z.object({
  a: single.pipe(z.string().trim().pipe(idParam).optional()).catch(undefined),
  b: single.pipe(z.string().trim().pipe(idParam).optional()).catch(undefined),
  at: single
    .pipe(
      z
        .string()
        .regex(/^\d{1,9}$/)
        .transform(Number)
        .optional(),
    )
    .catch(undefined),
  realign: single.pipe(z.enum(["0", "1", "true", "false"]).optional()).catch(undefined),
});

/** When B is a fork of A: its step, and whether its record there is an edit (one record read). */
async function forkLineage(store: Journal, runA: RunSummary, runB: RunSummary): Promise<ForkLineageView | null> {
  const from = runB.forkedFrom;
  if (!from || from.runId !== runA.runId) return null;
  const [record] = await store.history(runB.runId, { from: from.at, limit: 1 });
  const payload = record?.payload as { edited?: unknown } | null | undefined;
  return { at: from.at, edited: typeof payload?.edited === "object" && payload.edited !== null };
}

/** Bisect is offered on the diff of a run and its replay under a registry model, when jobs may run. */
async function bisectOffer(store: Journal, runA: RunSummary, runB: RunSummary): Promise<{ model: string; scorers: string[] } | null> {
  if (accessSettings().readOnly || runB.origin !== "replay") return null;
  const header = (await store.record(runB.runId, "run:start"))?.payload as { model?: unknown; replayOf?: unknown } | undefined;
  const registry = await serverRegistry().catch(() => null);
  if (!registry || header?.replayOf !== runA.runId || typeof header.model !== "string") return null;
  if (!registry.modelEntries().some((entry) => entry.name === header.model)) return null;
  return { model: header.model, scorers: registry.scorerNames() };
}

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** A shared diff link unfurls with its first divergence, from the same (cached) RunDiff the page renders. */
export async function generateMetadata({ searchParams }: { searchParams: SearchParams }): Promise<Metadata> {
  const { a, b, realign } = pageQuery.parse(await searchParams);
  if (!a || !b) return previewMetadata({ title: "Diff · Backtrack", description: "Compare two agent runs decision by decision, from their first divergence." });
  const tabTitle = `${a} → ${b} · Diff · Backtrack`;
  try {
    const { diff } = await cachedDiff(a, b, realign === "1" || realign === "true");
    const { head } = diff;
    return previewMetadata(diffPreview(head, head.divergentAt === null ? undefined : diffEntryAt(diff, head.divergentAt), serverSecretTest()), tabTitle);
  } catch {
    // An unknown run or an unreachable database: the page says which; the preview stays generic.
    return previewMetadata({ title: `${a} vs ${b} · Backtrack diff`, description: `Compare ${a} with ${b}, decision by decision.` }, tabTitle);
  }
}

export default async function DiffPage({ searchParams }: { searchParams: SearchParams }) {
  await connection();
  const query = pageQuery.parse(await searchParams);
  const { store, problem } = await pageStore();
  if (problem) return <DatabaseProblemView problem={problem} />;
  const recent = async () => (await store.runs({ limit: PICKER_RUNS })).runs.map((run) => run.runId);
  if (!query.a || !query.b) return <DiffPicker a={query.a} b={query.b} runIds={await recent()} />;
  const realign = query.realign === "1" || query.realign === "true";
  let loaded: LoadedDiff;
  try {
    loaded = await cachedDiff(query.a, query.b, realign);
  } catch (error) {
    if (!isBacktrackError(error) || error.code !== "not_found") throw error;
    return <DiffPicker a={query.a} b={query.b} runIds={await recent()} unknown={error.message} />;
  }
  const { diff, runA, runB } = loaded;
  const { head } = diff;
  const at = initialRow(query.at, head, diff.entries.count);
  const pageIndex = Math.floor(at / DIFF_PAGE);
  const outline = (run: typeof runA) =>
    run.recordCount <= INLINE_OUTLINE ? runOutline(run.runId, run).then((view) => (view ? view.entries.slice(0, view.entries.length) : null)) : Promise.resolve(null);
  const [outlineA, outlineB, lineage, bisect] = await Promise.all([outline(runA), outline(runB), forkLineage(store, runA, runB), bisectOffer(store, runA, runB)]);
  return (
    <DiffView
      key={`${diff.head.a}\u0000${diff.head.b}\u0000${realign}`}
      // Compared on the raw values above; redacted here, with distinct markers so that different secrets stay different.
      initial={redacted(
        {
          head,
          rows: diff.rows,
          at,
          realign,
          // Plain objects: a client component's props take no class instances (entries build their detail on demand).
          page: { index: pageIndex, entries: diffEntries(diff, pageIndex * DIFF_PAGE, (pageIndex + 1) * DIFF_PAGE) },
          first: head.divergentAt === null ? null : (diffEntryAt(diff, head.divergentAt) ?? null),
          runA,
          runB,
          outlineA,
          outlineB,
          lineage,
          bisect,
        },
        { distinct: true },
      )}
      secretKeys={parseSecretKeys(process.env.BACKTRACK_REDACT_KEYS)}
    />
  );
}
