/** The page shown when the database cannot be opened: what failed and what to check. */
import type { DatabaseProblem } from "@/app/_server/problem";

export function DatabaseProblemView({ problem }: { problem: DatabaseProblem }) {
  return (
    <section className="error-box" aria-labelledby="database-problem">
      <h1 id="database-problem">{problem.title}</h1>
      <p>
        Backtrack is configured to use <code>{problem.target}</code>, and opening it failed:
      </p>
      <pre>{problem.message}</pre>
      <h2>What to check</h2>
      <ul>
        {problem.checks.map((check) => (
          <li key={check}>{check}</li>
        ))}
      </ul>
      <p className="muted">Reload this page once it is fixed; the inspector tries again on every request.</p>
    </section>
  );
}
