import type { Db } from '../../db/database';
import type { PublishedTable, UploadPublishedTableRequest } from '../../shared/api/evaluations';
import { checkPaperTable, PaperTableError, readPaperTable } from '../../shared/eval/paper-tables';
import { DomainError, notFound } from '../domain-error';
import { deletePublishedTable, getPublishedTable, insertPublishedTable, listPublishedTables, type PublishedTableRecord } from './published-queries';

/**
 * Published figures (a paper's Table 3 or Table 4) stored for the whole team. An upload is read
 * by the same reader the page used before sending it, so what the page accepted the server
 * accepts; each row's printed figure is checked against its own accuracies when read.
 */

/** The table as the API shows it: every row with its printed figure checked. */
export function publicPublishedTable(record: PublishedTableRecord): PublishedTable {
  const { id, source, file_name, created_by, created_at } = record;
  return { id, source, file_name, created_by, created_at, ...checkPaperTable(record) };
}

/** Reads and stores an uploaded TSV; a file the reader refuses is a 400 naming file, line and column. */
export function uploadPublishedTable(db: Db, request: Required<UploadPublishedTableRequest>, userId: number): PublishedTable {
  let table;
  try {
    table = readPaperTable(request.text, request.file_name);
  } catch (error) {
    if (error instanceof PaperTableError) throw new DomainError('bad_request', error.message, 'body.text');
    throw error;
  }
  const id = insertPublishedTable(db, { source: request.source, fileName: request.file_name, table, createdBy: userId });
  const stored = getPublishedTable(db, id);
  if (!stored) throw new Error(`published table ${id} vanished after its insert`);
  return publicPublishedTable(stored);
}

export function listPublished(db: Db): PublishedTable[] {
  return listPublishedTables(db).map(publicPublishedTable);
}

export function removePublishedTable(db: Db, id: number): { id: number } {
  if (!deletePublishedTable(db, id)) throw notFound(`published table ${id}`);
  return { id };
}
