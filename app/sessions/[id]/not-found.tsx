import Link from "next/link";

export default function SessionNotFound() {
  return (
    <section className="error-box">
      <h1>No such session</h1>
      <p>There is no session with this id in the database the inspector is serving.</p>
      <p>
        <Link href="/sessions">See all sessions</Link>
      </p>
    </section>
  );
}
