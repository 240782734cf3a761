import Link from 'next/link';

export default function NotFound() {
  return (
    <main className="narrow">
      <h1>Not found</h1>
      <p>
        Nothing is here. <Link href="/">Back to the console</Link>.
      </p>
    </main>
  );
}
