import { safeNext } from "@/app/_server/access";

export const dynamic = "force-dynamic";

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[]; error?: string }> }) {
  const { next, error } = await searchParams;
  return (
    <section className="panel" style={{ maxWidth: 420 }}>
      <h1>Sign in</h1>
      <p className="muted">This inspector is protected by a token (BACKTRACK_TOKEN).</p>
      {error ? (
        <p role="alert" className="error-box">
          That token is not right.
        </p>
      ) : null}
      <form method="post" action="/api/sign-in">
        <input type="hidden" name="next" value={safeNext(next)} />
        <label>
          Token <input type="password" name="token" autoComplete="current-password" required autoFocus />
        </label>{" "}
        <button type="submit">Sign in</button>
      </form>
    </section>
  );
}
