"use client";

/** A button that copies text (or what `text()` returns when pressed) and says so. */
import { useState } from "react";

async function copy(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // No clipboard permission (an insecure origin, a test browser): fall back to a selection.
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  document.execCommand("copy");
  area.remove();
}

export function CopyButton({ label, text, disabled }: { label: string; text: () => string; disabled?: boolean }) {
  const [copied, setCopied] = useState(false);
  return (
    <>
      <button
        type="button"
        disabled={disabled}
        onClick={() => {
          void copy(text()).then(() => {
            setCopied(true);
            setTimeout(() => setCopied(false), 1_500);
          });
        }}
      >
        {label}
      </button>
      <span role="status" className="notice">
        {copied ? "Copied" : ""}
      </span>
    </>
  );
}
