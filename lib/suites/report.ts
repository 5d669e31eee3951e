/**
 * What a batch reports outside the database, pure: the `/diff` link of each result, JUnit XML (one
 * test case per pinned run; a failure's message is the first divergence and its link), the
 * pull-request Markdown, and the comparison with the previous batch. Links are relative unless a
 * base URL is given (`--base-url`).
 */
import { markdownCode } from "../inspect/diff-view";
import type { Batch, BatchResult, StatusCounts } from "./types";

export function batchPath(batch: Pick<Batch, "suite" | "batchId">, baseUrl = ""): string {
  return `${trimBase(baseUrl)}/suites/${encodeURIComponent(batch.suite)}/batches/${encodeURIComponent(batch.batchId)}`;
}

function trimBase(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, "");
}

/** `/diff?a=<pinned>&b=<replay>&at=<row>`; null without a replay. */
export function diffLink(result: Pick<BatchResult, "runId" | "replayRunId" | "divergentAt">, baseUrl = ""): string | null {
  if (!result.replayRunId) return null;
  const query = new URLSearchParams({ a: result.runId, b: result.replayRunId });
  if (result.divergentAt !== null) query.set("at", String(result.divergentAt));
  return `${trimBase(baseUrl)}/diff?${query.toString()}`;
}

/** What went wrong with a result, in one line: the divergence, the reason, or both. */
export function resultSummary(result: BatchResult): string {
  if (result.status === "pass") return "same decisions";
  if (result.status === "pending") return "not run yet";
  const parts = [result.divergence, result.status === "changed" && result.divergence ? null : result.reason].filter((part): part is string => Boolean(part));
  return parts.join("; ") || result.status;
}

// XML 1.0 allows tab, newline, carriage return and characters from U+0020 on (surrogates paired).
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

function xml(text: string): string {
  return text.replace(NOT_XML, "\uFFFD").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

function seconds(start: string | null, end: string | null): string {
  if (!start || !end) return "0";
  return (Math.max(0, Date.parse(end) - Date.parse(start)) / 1000).toFixed(3);
}

function junitCase(batch: Batch, result: BatchResult, baseUrl: string): string {
  const open = `    <testcase classname="backtrack.${xml(batch.suite)}" name="${xml(result.runId)}" time="${seconds(batch.startedAt, result.finishedAt)}"`;
  if (result.status === "pass") return `${open}/>`;
  const link = diffLink(result, baseUrl);
  const message = `${resultSummary(result)}${link ? ` — ${link}` : ""}`;
  const body = [
    `run: ${result.runId}`,
    `replay: ${result.replayRunId ?? "(none)"}`,
    `status: ${result.status}`,
    ...(result.divergentAt === null ? [] : [`first divergence at row ${result.divergentAt}: ${result.divergence ?? ""}`]),
    ...(result.reason ? [`reason: ${result.reason}`] : []),
    ...(link ? [`diff: ${link}`] : []),
  ].join("\n");
  const tag = result.status === "error" || result.status === "pending" ? "error" : "failure";
  return `${open}>\n      <${tag} message="${xml(message)}" type="${result.status}">${xml(body)}</${tag}>\n    </testcase>`;
}

export function junitXml(batch: Batch, results: readonly BatchResult[], counts: StatusCounts, baseUrl = ""): string {
  const failures = counts.changed + counts.failed;
  const errors = counts.error + counts.pending;
  const time = seconds(batch.startedAt, batch.finishedAt);
  const attributes = `tests="${results.length}" failures="${failures}" errors="${errors}" time="${time}"`;
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="backtrack" ${attributes}>`,
    `  <testsuite name="${xml(batch.suite)}" ${attributes} skipped="0" timestamp="${xml(batch.startedAt)}">`,
    `    <properties>`,
    `      <property name="batch" value="${xml(batch.batchId)}"/>`,
    `      <property name="model" value="${xml(batch.model)}"/>`,
    `      <property name="stripMemory" value="${batch.stripMemory}"/>`,
    `      <property name="scorer" value="${xml(batch.scorer)}"/>`,
    `      <property name="url" value="${xml(batchPath(batch, baseUrl))}"/>`,
    `    </properties>`,
    ...results.map((result) => junitCase(batch, result, baseUrl)),
    `  </testsuite>`,
    `</testsuites>`,
    ``,
  ].join("\n");
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s+/g, " ");
}

/** The pull-request comment: counts, then each run that did not pass with its first divergence and links. */
export function batchMarkdown(batch: Batch, results: readonly BatchResult[], counts: StatusCounts, baseUrl = ""): string {
  const failing = results.filter((result) => result.status !== "pass");
  const verdict = failing.length === 0 ? "all passed" : `${failing.length} of ${results.length} did not pass`;
  const lines = [
    `### Backtrack suite ${markdownCode(batch.suite)} under ${markdownCode(batch.model)}${batch.stripMemory ? " (memory stripped)" : ""}: ${verdict}`,
    "",
    `${counts.pass} passed · ${counts.changed} changed · ${counts.failed} failed · ${counts.error} errors${counts.pending ? ` · ${counts.pending} pending` : ""} (scorer ${markdownCode(batch.scorer)})`,
  ];
  if (failing.length > 0) {
    lines.push("", "| run | status | first divergence | diff |", "| --- | --- | --- | --- |");
    for (const result of failing) {
      const link = diffLink(result, baseUrl);
      lines.push(`| ${markdownCode(result.runId)} | ${result.status} | ${cell(resultSummary(result))} | ${link ? `[row ${result.divergentAt ?? "–"}](<${link}>)` : "–"} |`);
    }
  }
  lines.push("", `[Open the batch in Backtrack](<${batchPath(batch, baseUrl)}>)`, "");
  return lines.join("\n");
}

export interface BatchComparison {
  /** Passed in the previous batch (or were not in it), do not pass now. */
  newlyChanged: string[];
  /** Did not pass in the previous batch, pass now. */
  fixed: string[];
  /** Did not pass in either. */
  stillChanged: string[];
}

const failing = (result: BatchResult | undefined) => result !== undefined && result.status !== "pass" && result.status !== "pending";

export function compareBatches(previous: readonly BatchResult[], current: readonly BatchResult[]): BatchComparison {
  const before = new Map(previous.map((result) => [result.runId, result]));
  const comparison: BatchComparison = { newlyChanged: [], fixed: [], stillChanged: [] };
  for (const result of current) {
    if (result.status === "pending") continue;
    const old = before.get(result.runId);
    if (failing(result)) (failing(old) ? comparison.stillChanged : comparison.newlyChanged).push(result.runId);
    else if (failing(old)) comparison.fixed.push(result.runId);
  }
  return comparison;
}
