"use client";

/**
 * Light and dark themes. "system" follows the operating system; a choice is kept in
 * localStorage and applied as <html data-theme> before the first paint (THEME_SCRIPT).
 */
import { useEffect, useState } from "react";

export type ThemeChoice = "system" | "light" | "dark";
const STORAGE_KEY = "backtrack.theme";

/** Runs in <head> before paint, so a dark choice never flashes light. */
export const THEME_SCRIPT = `try{var t=localStorage.getItem("${STORAGE_KEY}");if(t==="light"||t==="dark")document.documentElement.dataset.theme=t}catch(e){}`;

/** The theme in effect now: the explicit choice, else the system's. */
export function resolvedTheme(): "light" | "dark" {
  const chosen = document.documentElement.dataset.theme;
  if (chosen === "light" || chosen === "dark") return chosen;
  return window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

export const THEME_EVENT = "backtrack:theme";

/** Calls `onChange` whenever the theme in effect changes (a choice here, or the system's). */
export function onThemeChange(onChange: () => void): () => void {
  const media = window.matchMedia("(prefers-color-scheme: dark)");
  media.addEventListener("change", onChange);
  window.addEventListener(THEME_EVENT, onChange);
  return () => {
    media.removeEventListener("change", onChange);
    window.removeEventListener(THEME_EVENT, onChange);
  };
}

export function ThemeSelect() {
  const [choice, setChoice] = useState<ThemeChoice>("system");
  useEffect(() => {
    const stored = localStorage.getItem(STORAGE_KEY);
    // Reads the choice the head script already applied; the server cannot know it.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (stored === "light" || stored === "dark") setChoice(stored);
  }, []);
  const choose = (next: ThemeChoice) => {
    setChoice(next);
    if (next === "system") {
      localStorage.removeItem(STORAGE_KEY);
      delete document.documentElement.dataset.theme;
    } else {
      localStorage.setItem(STORAGE_KEY, next);
      document.documentElement.dataset.theme = next;
    }
    window.dispatchEvent(new Event(THEME_EVENT));
  };
  return (
    <label className="theme-select">
      <span className="visually-hidden">Theme</span>
      <select aria-label="Theme" value={choice} onChange={(event) => choose(event.target.value as ThemeChoice)}>
        <option value="system">System theme</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </label>
  );
}
