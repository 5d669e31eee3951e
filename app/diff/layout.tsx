import type { ReactNode } from "react";
import "./diff.css";

/** The diff page: its styles only (the top bar and theme come from the root layout). */
export default function DiffLayout({ children }: { children: ReactNode }) {
  return children;
}
