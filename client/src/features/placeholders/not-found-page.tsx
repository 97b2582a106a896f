import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <section className="page">
      <title>Not found · Chart-HQA</title>
      <h1>Page not found</h1>
      <p>
        There is no page here. <Link to="/charts">Go to the charts.</Link>
      </p>
    </section>
  );
}
