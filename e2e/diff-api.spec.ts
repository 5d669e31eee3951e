import { expect, test } from "@playwright/test";

interface Body {
  alignment: string;
  divergentAt: number | null;
  summary: Record<string, number>;
  steps: Array<{ kind: string; status: string; realigned?: boolean; detail: Record<string, unknown> }>;
  error?: { code: string; message: string };
}

test("GET /api/diff gives the RunDiff of the demo's order-123 replay under demo/v2", async ({ request }) => {
  const response = await request.get("/api/diff?a=order-123&b=order-123~v2");
  expect(response.status()).toBe(200);
  const diff = (await response.json()) as Body;
  expect(diff.alignment).toBe("positional");
  expect(diff.divergentAt).toBe(0);
  expect(diff.summary).toEqual({ same: 0, changed: 3, missing: 0, added: 0 });
  expect(diff.steps[0]?.detail.toolCallsB).toEqual([expect.objectContaining({ toolName: "chargeCard", args: { orderId: "123", amount: 5000 } })]);
  expect(diff.steps[1]?.detail).toMatchObject({ toolName: "chargeCard", outputA: { charged: 500 }, outputB: { charged: 5000 } });

  const realigned = (await (await request.get("/api/diff?a=order-123&b=order-123~v2&realign=1")).json()) as Body;
  expect(realigned.alignment).toBe("realigned");
  expect(realigned.steps.every((entry) => entry.realigned === true)).toBe(true);
});

test("GET /api/diff shows the memory-off replay of chat-42 answering differently", async ({ request }) => {
  const diff = (await (await request.get("/api/diff?a=chat-42&b=chat-42~no-memory")).json()) as Body;
  expect(diff.divergentAt).toBe(0);
  expect(diff.steps[0]?.detail).toMatchObject({ textA: "Your dog is called Biscuit.", textB: "I don't know your dog's name yet; tell me and I will remember it." });
});

test("GET /api/diff answers bad input and unknown runs with JSON errors", async ({ request }) => {
  const missing = await request.get("/api/diff?a=order-123");
  expect(missing.status()).toBe(400);
  expect(((await missing.json()) as Body).error?.code).toBe("bad_input");
  const unknown = await request.get("/api/diff?a=order-123&b=no-such-run");
  expect(unknown.status()).toBe(404);
  expect(((await unknown.json()) as Body).error).toMatchObject({ code: "not_found", message: 'no run with id "no-such-run"' });
  const badFlag = await request.get("/api/diff?a=order-123&b=order-123~v2&realign=yes");
  expect(badFlag.status()).toBe(400);
});
