import { roleAtLeast } from '@shared/domain/roles';
import { useCurrentUser } from '../../auth/session';
import { ImportForm } from './import-form';
import { SplitsList } from './splits-list';

/** Curators bring splits in from the browser and keep them: listed with counts, renamed, archived. */
export function SplitsPage() {
  const me = useCurrentUser();
  return (
    <section className="page">
      <title>Splits · Chart-HQA</title>
      <h1>Splits</h1>
      {roleAtLeast(me.role, 'curator') ? (
        <>
          <ImportForm />
          <SplitsList />
        </>
      ) : (
        <p>Only curators import and manage splits.</p>
      )}
    </section>
  );
}
