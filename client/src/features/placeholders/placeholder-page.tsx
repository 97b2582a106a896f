import { pageInfo, type PageId } from '../../app/pages';

/** Stands in for a page that a later issue builds: says what it will hold. */
export function PlaceholderPage({ page }: { page: PageId }) {
  const info = pageInfo(page);
  return (
    <section className="page">
      <title>{`${info.label} · Chart-HQA`}</title>
      <h1>{info.label}</h1>
      <p className="placeholder">{info.purpose}</p>
      <p className="muted">Not built yet.</p>
    </section>
  );
}
