"use client";

/**
 * The run page's chart area: a "Flowchart" and a "Waterfall" tab (WAI-ARIA tabs: ←/→ move between
 * them when a tab has focus). The choice is `?tab=` in the URL, so a link reproduces the view.
 * Only the selected panel is mounted: the waterfall asks the server for nothing until it is opened.
 */
import { useId, useRef, type KeyboardEvent, type ReactNode } from "react";
import { RUN_TABS, type RunTab } from "../search-params";

const TITLES: Record<RunTab, string> = { flowchart: "Flowchart", waterfall: "Waterfall" };

export function ChartTabs({ tab, onTab, panels }: { tab: RunTab; onTab: (tab: RunTab) => void; panels: Record<RunTab, () => ReactNode> }) {
  const id = useId();
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    // The tabs own ←/→ while one has focus (the timeline has them everywhere else).
    event.preventDefault();
    const next = (RUN_TABS.indexOf(tab) + (event.key === "ArrowRight" ? 1 : RUN_TABS.length - 1)) % RUN_TABS.length;
    onTab(RUN_TABS[next]!);
    buttons.current[next]?.focus();
  };
  return (
    <div className="chart-tabs">
      <div role="tablist" aria-label="Chart" className="tabs" onKeyDown={onKeyDown}>
        {RUN_TABS.map((name, index) => (
          <button
            key={name}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${id}-${name}`}
            aria-selected={tab === name}
            aria-controls={`${id}-${name}-panel`}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => onTab(name)}
          >
            {TITLES[name]}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-${tab}-panel`} aria-labelledby={`${id}-${tab}`}>
        {panels[tab]()}
      </div>
    </div>
  );
}
