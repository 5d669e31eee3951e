/** The main navigation. Pages add their entry here (for example /sessions, /recovery, /diff). */
export interface NavLink {
  href: string;
  label: string;
}

export const NAV_LINKS: NavLink[] = [
  { href: "/runs", label: "Runs" },
  { href: "/sessions", label: "Sessions" },
  { href: "/diff", label: "Diff" },
  { href: "/recovery", label: "Recovery" },
  { href: "/suites", label: "Suites" },
];
