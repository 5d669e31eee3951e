import Link from "next/link";

export default function RunNotFound() {
  return (
    <section className="error-box">
      <h1>No such run</h1>
      <p>There is no run with this id in the database the inspector is serving.</p>
      <p>
        <Link href="/runs">See all runs</Link>
      </p>
    </section>
  );
}
