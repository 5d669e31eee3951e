import Link from "next/link";

export default function NotFound() {
  return (
    <section className="error-box">
      <h1>Page not found</h1>
      <p>
        <Link href="/runs">See all runs</Link>
      </p>
    </section>
  );
}
