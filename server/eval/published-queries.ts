import { z } from 'zod';
import type { Db } from '../../db/database';
import { parseJsonColumn } from '../../db/json-column';
import { statement } from '../../db/statements';
import { PaperTableKindSchema, Table3RowSchema, Table4RowSchema, type PaperTable } from '../../shared/eval/paper-tables';

/** All SQL of published figures (a paper's Table 3 or Table 4, uploaded as TSV). */

export type PublishedTableRecord = PaperTable & {
  id: number;
  source: string;
  file_name: string;
  created_by: string | null;
  created_at: string;
};

interface PublishedTableRow {
  id: number;
  source: string;
  file_name: string;
  kind: string;
  rows: string;
  created_by: string | null;
  created_at: string;
}

const SELECT = `SELECT p.id, p.source, p.file_name, p.kind, p.rows, u.username AS created_by, p.created_at
  FROM published_tables p LEFT JOIN users u ON u.id = p.created_by`;

const Table3RowsSchema = z.array(Table3RowSchema);
const Table4RowsSchema = z.array(Table4RowSchema);

function toRecord(row: PublishedTableRow): PublishedTableRecord {
  const at = { table: 'published_tables', column: 'rows', id: row.id };
  const base = { id: row.id, source: row.source, file_name: row.file_name, created_by: row.created_by, created_at: row.created_at };
  return PaperTableKindSchema.parse(row.kind) === 'table3'
    ? { ...base, kind: 'table3', rows: parseJsonColumn(Table3RowsSchema, row.rows, at) }
    : { ...base, kind: 'table4', rows: parseJsonColumn(Table4RowsSchema, row.rows, at) };
}

export function insertPublishedTable(db: Db, input: { source: string; fileName: string; table: PaperTable; createdBy: number }): number {
  return Number(
    statement(db, 'INSERT INTO published_tables (source, file_name, kind, rows, created_by) VALUES (?, ?, ?, ?, ?)').run(
      input.source,
      input.fileName,
      input.table.kind,
      JSON.stringify(input.table.rows),
      input.createdBy,
    ).lastInsertRowid,
  );
}

export function getPublishedTable(db: Db, id: number): PublishedTableRecord | null {
  const row = statement(db, `${SELECT} WHERE p.id = ?`).get(id) as PublishedTableRow | undefined;
  return row ? toRecord(row) : null;
}

/** Every uploaded table, oldest first (upload order is the order a team reads them in). */
export function listPublishedTables(db: Db): PublishedTableRecord[] {
  return (statement(db, `${SELECT} ORDER BY p.id`).all() as PublishedTableRow[]).map(toRecord);
}

/** True when a table was deleted. */
export function deletePublishedTable(db: Db, id: number): boolean {
  return statement(db, 'DELETE FROM published_tables WHERE id = ?').run(id).changes > 0;
}
