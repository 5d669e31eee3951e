/**
 * Decisions answered as soon as they are journaled, the run resumed in a server job: on runs whose
 * resume is slow (the config's model takes SLOW_RESUME_MS to answer after the approval), planted
 * under fresh ids so that each test can run again on the same database.
 */
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { plant } from "./cli";
import { SLOW_RESUME_MS } from "./fixtures/backtrack.config.mjs";

interface JobBody {
  jobId: string;
  kind: string;
  status: string;
  input: { runId: string };
  error?: string;
  result?: { root: string; resumed: { outcome: string }; run: { status: string } };
  sentence?: string;
}

const row = (page: Page, runId: string) => page.locator(`tr[data-run="${runId}"]`);
const jobOf = async (request: APIRequestContext, jobId: string) => (await (await request.get(`/api/jobs/${encodeURIComponent(jobId)}`)).json()) as JobBody;

/** A refund run paused for approval, under a new id (e2e/plant-paused-refund.ts); `agent`: one the server does not know. */
async function plantPausedRefund(agent?: string): Promise<string> {
  const runId = `slow-refund-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  await plant("e2e/plant-paused-refund.ts", [runId, ...(agent ? ["--agent", agent] : [])]);
  return runId;
}

async function approvals(request: APIRequestContext, runId: string) {
  const body = (await (await request.get(`/api/runs/${runId}/records?from=0&limit=100`)).json()) as {
    records: Array<{ kind: string; payload: { by: string; approved: boolean } }>;
  };
  return body.records.filter((record) => record.kind === "approval").map((record) => record.payload);
}

test("approving on the board shows the decision recorded at once, then the resume's progress and its outcome; the run ends complete", async ({ page, request }) => {
  const runId = await plantPausedRefund();
  await page.goto("/recovery");
  await page.getByLabel("Decided by").fill("e2e-async");
  await row(page, runId).getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("status", { name: "Last action" })).toHaveText(`Recorded: approved issueRefund in ${runId} (by e2e-async).`);
  // The model answers SLOW_RESUME_MS after the approval: the decision shows while the run still resumes.
  const progress = page.getByRole("status", { name: "Resume progress" });
  await expect(progress).toHaveText(`Resuming ${runId}…`, { timeout: SLOW_RESUME_MS });
  await expect(progress).toHaveText(`${runId} resumed and completed`, { timeout: SLOW_RESUME_MS + 15_000 });
  await expect(row(page, runId)).toHaveCount(0);
  const summary = (await (await request.get(`/api/runs/${runId}`)).json()) as { run: { status: string } };
  expect(summary.run.status).toBe("complete");
  expect(await approvals(request, runId)).toEqual([expect.objectContaining({ approved: true, by: "e2e-async" })]);
});

test("POST /api/runs/{id}/decisions answers 202 with the decision and a job before the slow resume ends; the job reaches done; a second decision is 409", async ({ request }) => {
  const runId = await plantPausedRefund();
  const started = Date.now();
  const response = await request.post(`/api/runs/${runId}/decisions`, { data: { decision: "approve", by: "e2e-api" } });
  const elapsed = Date.now() - started;
  expect(response.status()).toBe(202);
  expect(elapsed).toBeLessThan(SLOW_RESUME_MS);
  const body = (await response.json()) as { runId: string; decision: Record<string, unknown>; jobId: string };
  expect(body).toEqual({ runId, decision: expect.objectContaining({ approved: true, by: "e2e-api", toolName: "issueRefund" }), jobId: expect.stringMatching(/^job-/) });
  expect((await jobOf(request, body.jobId)).status).toMatch(/^(queued|running)$/);

  // The first decision stands: the run no longer waits for one.
  const second = await request.post(`/api/runs/${runId}/decisions`, { data: { decision: "deny", by: "e2e-late" } });
  expect(second.status()).toBe(409);
  expect(((await second.json()) as { error: { code: string } }).error.code).toMatch(/^(not_waiting|already_decided)$/);

  await expect.poll(async () => (await jobOf(request, body.jobId)).status, { timeout: SLOW_RESUME_MS + 15_000 }).toBe("done");
  expect(await jobOf(request, body.jobId)).toMatchObject({
    jobId: body.jobId,
    kind: "resume",
    input: { runId },
    result: { root: runId, resumed: { outcome: "complete" }, run: { status: "complete" } },
    sentence: `${runId} resumed and completed`,
  });
  expect(await approvals(request, runId)).toEqual([expect.objectContaining({ approved: true, by: "e2e-api" })]);
  const unknown = await request.get("/api/jobs/job-none");
  expect(unknown.status()).toBe(404);
  expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe("not_found");
});

test("a resume that fails shows its error on the board, and the decision stays recorded", async ({ page, request }) => {
  const runId = await plantPausedRefund("retired-support");
  await page.goto("/recovery");
  await row(page, runId).getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("status", { name: "Last action" })).toHaveText(`Recorded: approved issueRefund in ${runId} (by inspector).`);
  await expect(page.getByRole("alert", { name: "Resume progress" })).toContainText(`run "${runId}" failed when resumed: no agent named "retired-support" is registered`);
  expect(await approvals(request, runId)).toEqual([expect.objectContaining({ approved: true, by: "inspector" })]);
  // Unfinished, no longer waiting for a decision: recovery re-drives it once the agent is back.
  await expect(row(page, runId)).toContainText("running");
  await expect(row(page, runId).getByRole("button", { name: "Approve" })).toHaveCount(0);
});
