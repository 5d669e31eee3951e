/**
 * A "?" that opens a short explanation in place: a page says one line, and the why lives here.
 * Built on <details>/<summary>, so it opens with a click, Enter or Space without script, the
 * summary is announced as a button with its expanded state; Escape or a click elsewhere closes it
 * (an open body may cover the controls below it). Its body is flow
 * content: put it next to a paragraph, never inside one.
 */
"use client";

import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from "react";

function closeOnEscape(event: KeyboardEvent<HTMLDetailsElement>) {
  if (event.key !== "Escape" || !event.currentTarget.open) return;
  event.currentTarget.open = false;
  // Inside a <dialog>, Escape would also close the dialog: the popover takes it.
  event.preventDefault();
  event.stopPropagation();
  event.currentTarget.querySelector("summary")?.focus();
}

/** Closes the popover on a pointer press outside it. */
function useCloseOutside() {
  const details = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const close = (event: PointerEvent) => {
      const element = details.current;
      if (element?.open && event.target instanceof Node && !element.contains(event.target)) element.open = false;
    };
    document.addEventListener("pointerdown", close);
    return () => document.removeEventListener("pointerdown", close);
  }, []);
  return details;
}

export function HelpPopover({ label, children }: { label: string; children: ReactNode }) {
  const body = useId();
  const details = useCloseOutside();
  return (
    <details ref={details} className="help" onKeyDown={closeOnEscape}>
      <summary aria-label={label} aria-controls={body} title={label}>
        ?
      </summary>
      <div id={body} className="help-body" role="note" aria-label={label}>
        {children}
      </div>
    </details>
  );
}

/** One line of text with its "?" beside it: the common form of a page's explanation. */
export function HelpLine({ label, className, children, help }: { label: string; className?: string; children: ReactNode; help: ReactNode }) {
  return (
    <div className={`help-line${className ? ` ${className}` : ""}`}>
      <span>{children}</span> <HelpPopover label={label}>{help}</HelpPopover>
    </div>
  );
}
