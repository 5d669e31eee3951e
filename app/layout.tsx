import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: "Backtrack",
  description: "See what an AI agent did, and why.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header className="top">
          <Link href="/runs" className="brand">
            Backtrack
          </Link>
          <nav aria-label="Main">
            <Link href="/runs">Runs</Link>
          </nav>
        </header>
        <main>{children}</main>
      </body>
    </html>
  );
}
