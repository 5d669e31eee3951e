import { describe, expect, it } from "vitest";
import { chartEnd, formatCount, formatDuration, formatTime, runDurationMs, statusText } from "@/lib/inspect/view";

describe("view helpers", () => {
  it("formats counts, durations and times the same on server and client", () => {
    expect(formatCount(1234567)).toBe("1,234,567");
    expect(formatCount(12)).toBe("12");
    expect(formatDuration(null)).toBe("—");
    expect(formatDuration(850)).toBe("850 ms");
    expect(formatDuration(1_234)).toBe("1.23 s");
    expect(formatDuration(12_400)).toBe("12.4 s");
    expect(formatDuration(185_000)).toBe("3 min 05 s");
    expect(formatDuration(7_440_000)).toBe("2 h 04 min");
    expect(formatTime("2026-11-29T18:52:09.123Z")).toBe("2026-11-29 18:52:09 UTC");
    expect(formatTime(null)).toBe("—");
  });

  it("says a paused run's reason, and how long a run took or has taken so far", () => {
    expect(statusText({ status: "paused", pause: { reason: "approval", runId: "r", message: "m" } })).toBe("paused (approval)");
    expect(statusText({ status: "complete", pause: null })).toBe("complete");
    expect(runDurationMs({ startedAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:05Z", completedAt: null })).toBe(5_000);
    expect(runDurationMs({ startedAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:09Z", completedAt: "2026-01-01T00:00:02Z" })).toBe(2_000);
    expect(chartEnd("complete")).toBe("complete");
    expect(chartEnd("paused")).toBe("paused");
  });
});
