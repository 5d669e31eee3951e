import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import type { ReactNode } from "react";
import { NAV_LINKS } from "@/components/nav-links";
import { Providers } from "@/components/providers";
import { THEME_SCRIPT, ThemeSelect } from "@/components/theme";
import { previewMetadata, SITE_DESCRIPTION } from "./_server/link-preview";
import "./globals.css";

/**
 * Where the preview image's absolute URL points: BACKTRACK_PUBLIC_URL (a server behind a proxy),
 * else the Host this request came to, which the proxy has checked against the allowed hosts.
 * Forwarded headers are not trusted: any client can set them.
 */
async function siteBase(): Promise<URL | null> {
  const configured = process.env.BACKTRACK_PUBLIC_URL;
  const host = (await headers()).get("host");
  try {
    return configured ? new URL(configured) : host ? new URL(`http://${host}`) : null;
  } catch {
    return null;
  }
}

/** The defaults every page starts from; a page's own generateMetadata replaces the text. */
export async function generateMetadata(): Promise<Metadata> {
  return {
    ...previewMetadata({ title: "Backtrack", description: SITE_DESCRIPTION }),
    metadataBase: await siteBase(),
    icons: { icon: { url: "/icon.svg", type: "image/svg+xml" } },
  };
}

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
