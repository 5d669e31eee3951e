/**
 * A page's link-preview tags (Open Graph and Twitter) from a LinkPreview (lib/inspect/link-preview.ts).
 * Every page shares one card image, public/og.png; the text is the page's own. A page behind
 * BACKTRACK_TOKEN never reaches here for a signed-out reader (the proxy sends it to /sign-in), so an
 * unfurling bot without the token sees only the sign-in page's generic tags.
 */
import type { Metadata } from "next";
import type { LinkPreview } from "@/lib/inspect/link-preview";
import { parseSecretKeys, secretKeyMatcher } from "@/lib/inspect/redact";

export const OG_IMAGE = { url: "/og.png", width: 1200, height: 630, alt: "Backtrack: see what an AI agent did, and why" };

export const SITE_DESCRIPTION = "See what an AI agent did, and why: a durable journal of agent runs, and an inspector that reads it.";

/** The title, description, Open Graph and Twitter tags of one page; `documentTitle` is the tab's, when it differs from the card's. */
export function previewMetadata(preview: LinkPreview, documentTitle: string = preview.title): Metadata {
  return {
    title: documentTitle,
    description: preview.description,
    openGraph: { type: "website", siteName: "Backtrack", title: preview.title, description: preview.description, images: [OG_IMAGE] },
    twitter: { card: "summary_large_image", title: preview.title, description: preview.description, images: [OG_IMAGE] },
  };
}

/** The secret-key test of this server (BACKTRACK_REDACT_KEYS, else the defaults). */
export function serverSecretTest(): (key: string) => boolean {
  return secretKeyMatcher(parseSecretKeys(process.env.BACKTRACK_REDACT_KEYS));
}
