/** The waterfall's rows (with expanded sub-agent runs) and its viewport (zoom, pan, fit, reveal). */
import { describe, expect, it } from "vitest";
import { barRange, clampViewport, fitViewport, panViewport, revealSpan, rowAt, rowCount, rowOfBar, zoomViewport } from "@/components/run/waterfall-view";

describe("rows", () => {
  const expansions = [
    { runId: "a", after: 2, count: 3 },
    { runId: "b", after: 5, count: 2 },
  ];

  it("puts an expanded run's bars right after the call that ran it", () => {
    expect(rowCount(10, expansions)).toBe(15);
    const rows = Array.from({ length: 15 }, (_, row) => rowAt(row, expansions));
    expect(rows.map((row) => (row.type === "bar" ? row.index : `${row.runId}${row.index}`))).toEqual([0, 1, 2, "a0", "a1", "a2", 3, 4, 5, "b0", "b1", 6, 7, 8, 9]);
    for (const [row, shown] of rows.entries()) if (shown.type === "bar") expect(rowOfBar(shown.index, expansions)).toBe(row);
  });

  it("maps rows on screen to the run's bars to fetch", () => {
    expect(barRange(3, 10, expansions)).toEqual({ first: 2, last: 5 });
    expect(barRange(0, 14, [])).toEqual({ first: 0, last: 14 });
  });
});

describe("the viewport", () => {
  const span = 1_000;
  const track = 100;

  it("fits the whole span, and never zooms out past it", () => {
    expect(fitViewport(span, track)).toEqual({ msPerPx: 10, offsetMs: 0 });
    expect(zoomViewport(fitViewport(span, track), 0.5, 50, span, track)).toEqual({ msPerPx: 10, offsetMs: 0 });
    // An instant run still draws (1 ms across the track).
    expect(fitViewport(0, track).msPerPx).toBeCloseTo(0.01);
  });

  it("zooms around the pointer and pans within the span", () => {
    const zoomed = zoomViewport(fitViewport(span, track), 2, 50, span, track);
    expect(zoomed).toEqual({ msPerPx: 5, offsetMs: 250 });
    // The time under the pointer stays there.
    const atPointer = zoomViewport(fitViewport(span, track), 2, 80, span, track);
    expect(atPointer.offsetMs + 80 * atPointer.msPerPx).toBeCloseTo(800);
    expect(panViewport(zoomed, 25, span, track)).toEqual({ msPerPx: 5, offsetMs: 375 });
    expect(panViewport(zoomed, 1_000, span, track)).toEqual({ msPerPx: 5, offsetMs: 500 });
    expect(panViewport(zoomed, -1_000, span, track)).toEqual({ msPerPx: 5, offsetMs: 0 });
    expect(clampViewport({ msPerPx: 50, offsetMs: -5 }, span, track)).toEqual({ msPerPx: 10, offsetMs: 0 });
  });

  it("moves to reveal a span only when it is out of view", () => {
    const view = { msPerPx: 5, offsetMs: 250 };
    expect(revealSpan(view, 300, 400, span, track)).toBe(view);
    const moved = revealSpan(view, 900, 950, span, track);
    expect(moved.offsetMs).toBeLessThanOrEqual(900);
    expect(moved.offsetMs + 500).toBeGreaterThanOrEqual(950);
  });
});
