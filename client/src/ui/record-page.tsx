import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { isApiError } from '../api/http';
import { LoadError } from './error-messages';

/** The "‹ Runs" link at the top of a record's page, back to the list it belongs to. */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="back-link">
      ‹ {children}
    </Link>
  );
}

/** True when a record's query failed because the server has no record with that id. */
export function isNotFound(error: unknown): boolean {
  return isApiError(error) && error.status === 404;
}

/** The page of a record that does not exist, keeping the way back to its list. */
export function RecordNotFound({ noun, back }: { noun: string; back: ReactNode }) {
  return (
    <section className="page">
      {back}
      <h1>{noun.charAt(0).toUpperCase() + noun.slice(1)} not found</h1>
      <p>There is no {noun} with this id.</p>
    </section>
  );
}

type RecordPageProps<T> = {
  /** What one record is called, lower case ("evaluation run"); names the not-found and error states. */
  noun: string;
  /** The id from the URL; null when it is not a valid id. */
  id: number | null;
  query: UseQueryResult<T>;
  /** The back link, kept in every state of the page. */
  back: ReactNode;
  /** The whole text shown while the record loads. */
  loading: string;
  children: (data: T) => ReactNode;
};

/**
 * The page of one record (/runs/:id): not found, loading and failed states share the page's
 * frame and back link; `children` renders the record once it is here.
 */
export function RecordPage<T>({ noun, id, query, back, loading, children }: RecordPageProps<T>) {
  if (id === null || isNotFound(query.error)) return <RecordNotFound noun={noun} back={back} />;
  if (query.isPending) {
    return (
      <section className="page">
        {back}
        <p className="muted">{loading}</p>
      </section>
    );
  }
  if (query.isError) {
    return (
      <section className="page">
        {back}
        <LoadError what={`the ${noun}`} error={query.error} />
      </section>
    );
  }
  return children(query.data);
}
