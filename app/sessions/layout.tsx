import type { ReactNode } from "react";
import "./sessions.css";

/** The sessions pages: their styles only (the top bar and theme come from the root layout). */
export default function SessionsLayout({ children }: { children: ReactNode }) {
  return children;
}
