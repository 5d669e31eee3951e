"use client";

/** Anything a page did not expect. (Database problems are rendered by the pages themselves, with what to check.) */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <section className="error-box">
      <h1>Something went wrong</h1>
      <p>The inspector could not show this page. The server log has the details{error.digest ? ` (reference ${error.digest})` : ""}.</p>
      <button type="button" onClick={reset}>
        Try again
      </button>
    </section>
  );
}
