"use client";

/**
 * Renders Mermaid source in the browser with securityLevel "strict" (no scripts, no click
 * callbacks; labels sanitised). Mermaid loads on first use, so pages without a chart stay light.
 */
import { useEffect, useId, useRef, useState } from "react";

export function MermaidChart({ source, label }: { source: string; label: string }) {
  const container = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string | null>(null);
  const id = `chart-${useId().replace(/[^a-zA-Z0-9]/g, "")}`;

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      try {
        const mermaid = (await import("mermaid")).default;
        const dark = window.matchMedia("(prefers-color-scheme: dark)").matches;
        mermaid.initialize({ startOnLoad: false, securityLevel: "strict", theme: dark ? "dark" : "default", maxEdges: 2000 });
        const { svg } = await mermaid.render(id, source);
        if (!cancelled && container.current) {
          container.current.innerHTML = svg;
          setError(null);
        }
      } catch (failure) {
        if (!cancelled) setError(failure instanceof Error ? failure.message : String(failure));
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [id, source]);

  return (
    <figure className="chart" aria-label={label}>
      <div ref={container} data-testid="flowchart" />
      {error ? <p className="error-box">The flowchart could not be drawn: {error}</p> : null}
    </figure>
  );
}
