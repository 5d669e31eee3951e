"use client";

/**
 * Timeline controls, reusable by any page that scrubs through steps (runs, diffs, sessions):
 * a slider named "Timeline", buttons "Restart", "Previous event", "Play"/"Pause", "Next event",
 * a speed control (0.5× to 8×), and the keys ←/→, Space, Home and End (useTimelineKeys).
 * The page owns the cursor (`at`, usually in the URL); these only ask to move it.
 */
import { useEffect, useRef, useState } from "react";

export const SPEEDS = [0.5, 1, 2, 4, 8] as const;
export type Speed = (typeof SPEEDS)[number];
/** Steps a second at 1×. */
const BASE_STEPS_PER_SECOND = 2;

export interface TimelineProps {
  /** Steps 0…last. */
  last: number;
  at: number;
  onAt: (at: number) => void;
  playing: boolean;
  onPlaying: (playing: boolean) => void;
  speed: Speed;
  onSpeed: (speed: Speed) => void;
  /** What the slider announces for a step ("step 3 of 9: tool: chargeCard"). */
  describe?: (at: number) => string;
  /** Steps to mark on the slider's track (search hits), ascending. */
  marks?: readonly number[];
}

/** Ticks drawn at most: marks closer than one tick apart share one, so 100,000 hits stay cheap. */
const MAX_TICKS = 400;

/** Where to draw the marks, as fractions of the track, deduplicated. */
export function trackTicks(marks: readonly number[], last: number): number[] {
  if (last <= 0) return marks.length > 0 ? [0] : [];
  const ticks = new Set<number>();
  for (const mark of marks) ticks.add(Math.round((Math.min(mark, last) / last) * MAX_TICKS));
  return [...ticks].map((tick) => tick / MAX_TICKS);
}

export function TimelineControls({ last, at, onAt, playing, onPlaying, speed, onSpeed, describe, marks }: TimelineProps) {
  const empty = last < 0;
  const ticks = marks && marks.length > 0 ? trackTicks(marks, last) : null;
  return (
    <div className="timeline-controls panel" role="group" aria-label="Timeline controls">
      <button
        type="button"
        onClick={() => {
          onPlaying(false);
          onAt(0);
        }}
        disabled={empty}
      >
        Restart
      </button>
      <button type="button" onClick={() => onAt(Math.max(0, at - 1))} disabled={empty || at <= 0}>
        Previous event
      </button>
      <button type="button" onClick={() => onPlaying(!playing)} disabled={empty || (!playing && at >= last)}>
        {playing ? "Pause" : "Play"}
      </button>
      <button type="button" onClick={() => onAt(Math.min(last, at + 1))} disabled={empty || at >= last}>
        Next event
      </button>
      <label>
        <span className="visually-hidden">Speed</span>
        <select aria-label="Speed" value={String(speed)} onChange={(event) => onSpeed(Number(event.target.value) as Speed)}>
          {SPEEDS.map((value) => (
            <option key={value} value={String(value)}>
              {value}×
            </option>
          ))}
        </select>
      </label>
      <span className="timeline-track">
        <input
          type="range"
          aria-label="Timeline"
          min={0}
          max={Math.max(0, last)}
          step={1}
          value={Math.min(at, Math.max(0, last))}
          disabled={empty}
          aria-valuetext={describe ? describe(at) : `step ${at} of ${last}`}
          onChange={(event) => onAt(Number(event.target.value))}
          data-timeline-slider=""
        />
        {ticks ? (
          <span className="timeline-marks" data-testid="timeline-marks" data-count={marks!.length} aria-hidden="true">
            {ticks.map((tick) => (
              <span key={tick} className="timeline-mark" style={{ left: `${tick * 100}%` }} />
            ))}
          </span>
        ) : null}
      </span>
      <span className="timeline-position" aria-hidden="true">
        {empty ? "no steps" : `${at} / ${last}`}
      </span>
    </div>
  );
}

/** Advances the cursor while playing, at `speed`; stops at the last step. */
export function usePlayback(playing: boolean, speed: Speed, at: number, last: number, onAt: (at: number) => void, onPlaying: (playing: boolean) => void) {
  const state = useRef({ at, last, onAt, onPlaying });
  useEffect(() => {
    state.current = { at, last, onAt, onPlaying };
  });
  useEffect(() => {
    if (!playing) return;
    const timer = setInterval(
      () => {
        const { at: now, last: end, onAt: move, onPlaying: setPlaying } = state.current;
        if (now >= end) {
          setPlaying(false);
          return;
        }
        move(now + 1);
      },
      1_000 / (BASE_STEPS_PER_SECOND * speed),
    );
    return () => clearInterval(timer);
  }, [playing, speed]);
}

/** Whether a key press belongs to the focused element rather than to the timeline. */
function ownedByTarget(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  // The slider handles arrows, Home and End itself; Space is ours.
  if (target.hasAttribute("data-timeline-slider")) return key !== " ";
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return true;
  // Buttons, links and summaries act on Space and Enter.
  if ((tag === "BUTTON" || tag === "SUMMARY" || tag === "A" || target.getAttribute("role") === "button") && key === " ") return true;
  return false;
}

/** ←/→ step, Space plays or pauses, Home and End jump, anywhere on the page but in fields. */
export function useTimelineKeys(props: Pick<TimelineProps, "last" | "at" | "onAt" | "playing" | "onPlaying">) {
  const state = useRef(props);
  useEffect(() => {
    state.current = props;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      if (!["ArrowLeft", "ArrowRight", "Home", "End", " "].includes(event.key)) return;
      if (ownedByTarget(event.target, event.key)) return;
      const { last, at, onAt, playing, onPlaying } = state.current;
      if (last < 0) return;
      event.preventDefault();
      if (event.key === "ArrowRight") onAt(Math.min(last, at + 1));
      else if (event.key === "ArrowLeft") onAt(Math.max(0, at - 1));
      else if (event.key === "Home") onAt(0);
      else if (event.key === "End") onAt(last);
      else onPlaying(!playing && at < last);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

/** Playback state a page keeps: playing and speed (the cursor itself lives in the URL). */
export function usePlaybackState() {
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<Speed>(1);
  return { playing, setPlaying, speed, setSpeed };
}
