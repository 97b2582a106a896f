import { describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../db/database';
import { BadJsonColumnError } from '../../db/json-column';
import { getBatch, insertBatch, recordBatchStep } from './batch-queries';

function freshDb() {
  const db = openDatabase(':memory:');
  migrate(db);
  return db;
}

describe('reflection batch rows', () => {
  it('reads the JSON columns back as written', () => {
    const db = freshDb();
    const id = insertBatch(db, { chartType: null, proposalIds: [], createdBy: null });
    recordBatchStep(db, id, { error: { proposal_id: 4, error: 'model down' } });
    expect(getBatch(db, id)).toMatchObject({ proposal_ids: [], total: 0, errors: [{ proposal_id: 4, error: 'model down' }] });
    db.close();
  });

  it('names the table, column and row of a stored JSON value that no longer parses', () => {
    const db = freshDb();
    const id = insertBatch(db, { chartType: null, proposalIds: [], createdBy: null });
    db.prepare("UPDATE reflection_batches SET proposal_ids = '[1, \"two\"]' WHERE id = ?").run(id);
    expect(() => getBatch(db, id)).toThrow(BadJsonColumnError);
    expect(() => getBatch(db, id)).toThrow(new RegExp(`^reflection_batches\\.proposal_ids of row ${id}: not of its shape`));
    db.close();
  });
});
