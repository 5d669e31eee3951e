import { z } from "zod";
import { json, notFound, parseQuery, route } from "@/app/_server/http";
import { runTimeline } from "@/app/_server/outlines";
import { redacted } from "@/app/_server/redaction";
import { getStore } from "@/app/_server/store";
import { wholeNumber } from "@/app/_server/url-input";
import { newestWithin } from "@/app/_server/windows";
import { stateWindow, windowSteps } from "@/lib/inspect/state-window";
import { clampStep } from "@/lib/inspect/timeline";

export const dynamic = "force-dynamic";

const query = z.object({
  at: wholeNumber(0).optional(),
  before: wholeNumber(0).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

/**
 * The run as it was at step `at` (default: its last step): the summary the page shows, the record
 * at the step, and a window of the conversation so far: its newest `limit` records below `before`
 * (default: all up to `at`), within the response budget. `next` asks for the older window.
 */
export const GET = route<{ id: string }>(async (request, { id }) => {
  const parsed = parseQuery(request, query);
  const store = await getStore();
  const run = await store.run(id);
  if (!run) return notFound(`no run with id "${id}"`);
  const timeline = await runTimeline(id, run);
  if (!timeline) return notFound(`no run with id "${id}"`);
  const at = clampStep(parsed.at ?? run.lastSeq, Math.min(run.lastSeq, timeline.entries.length - 1));
  const before = Math.min(parsed.before ?? at + 1, at + 1);
  const [records, [record]] = await Promise.all([newestWithin(store, id, windowSteps(timeline, at, before, parsed.limit)), store.history(id, { from: at, limit: 1 })]);
  const state = stateWindow(timeline, at, run, { record: record && redacted(record), records, before });
  const { nextBefore } = state.window;
  const next = nextBefore === null ? null : `/api/runs/${encodeURIComponent(id)}/state?at=${state.at}&before=${nextBefore}&limit=${parsed.limit}`;
  return json({ run: redacted(run), state, next });
});
