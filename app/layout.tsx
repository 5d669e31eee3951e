import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { NAV_LINKS } from "@/components/nav-links";
import { Providers } from "@/components/providers";
import { THEME_SCRIPT, ThemeSelect } from "@/components/theme";
import "./globals.css";

export const metadata: Metadata = {
  title: "Backtrack",
  description: "See what an AI agent did, and why.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="top">
          <Link href="/runs" className="brand">
            Backtrack
          </Link>
          <nav aria-label="Main">
            {NAV_LINKS.map((link) => (
              <Link key={link.href} href={link.href}>
                {link.label}
              </Link>
            ))}
          </nav>
          <span className="top-spacer" />
          <ThemeSelect />
        </header>
        <Providers>
          <main id="main">{children}</main>
        </Providers>
      </body>
    </html>
  );
}
