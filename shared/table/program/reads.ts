import { findLabelIndex } from '../labels';
import type { DataTable } from '../model';
import { parseProgram, type Node } from './parser';

/**
 * What a program reads of one table, found from its text: the cells `value()` names, the rows
 * `row()` names and the columns `series()` names. The checks that ask "does the program read
 * what the question asks, and could the assumption alone give its answer?" need this; a
 * program that reads a chart group (`chart(n, …)`, `value(n, …)`) or builds a label at run
 * time is left unread (`null`): nothing is claimed about it.
 */
export interface ProgramReads {
  /** Cells as [row index, series index] of the table. */
  cells: [number, number][];
  /** Whole rows (`row(R)`), as row indexes. */
  rows: number[];
  /** Whole columns (`series(S)`, `series()`), as series indexes. */
  series: number[];
  /** It counts or lists labels (`rows()`, `series_names()`): the table's shape is read too. */
  labels: boolean;
}

const TABLE_READERS = new Set(['value', 'row', 'series', 'rows', 'series_names', 'chart']);

export function programReads(program: string, table: DataTable): ProgramReads | null {
  let tree: Node;
  try {
    tree = parseProgram(program);
  } catch {
    return null;
  }
  const reads: ProgramReads = { cells: [], rows: [], series: [], labels: false };
  let readable = true;
  const text = (node: Node | undefined): string | null => (node && (node.kind === 'string' || node.kind === 'number') ? String(node.value) : null);
  const rowOf = (node: Node | undefined) => {
    const label = text(node);
    return label === null ? -1 : findLabelIndex(table.rows.map((row) => row.label), label);
  };
  const seriesOf = (node: Node | undefined) => {
    const label = text(node);
    return label === null ? -1 : findLabelIndex(table.series, label);
  };
  const visit = (node: Node): void => {
    if (!readable) return;
    switch (node.kind) {
      case 'call': {
        const name = node.name.toLowerCase();
        if (TABLE_READERS.has(name)) readCall(name, node.args);
        node.args.forEach(visit);
        return;
      }
      case 'binary':
        visit(node.left);
        visit(node.right);
        return;
      case 'negate':
      case 'not':
        visit(node.operand);
        return;
      default:
        return;
    }
  };
  const readCall = (name: string, args: Node[]) => {
    switch (name) {
      case 'chart':
        readable = false;
        return;
      case 'rows':
      case 'series_names':
        reads.labels = true;
        return;
      case 'value': {
        if (args.length === 3) {
          readable = false;
          return;
        }
        const r = rowOf(args[0]);
        const s = args.length === 2 ? seriesOf(args[1]) : table.series.length === 1 ? 0 : -1;
        if (r === -1 || s === -1) readable = false;
        else reads.cells.push([r, s]);
        return;
      }
      case 'row': {
        const r = rowOf(args[0]);
        if (r === -1) readable = false;
        else reads.rows.push(r);
        return;
      }
      case 'series': {
        const s = args.length === 0 ? (table.series.length === 1 ? 0 : -1) : seriesOf(args[0]);
        if (s === -1) readable = false;
        else reads.series.push(s);
        return;
      }
    }
  };
  visit(tree);
  return readable ? reads : null;
}

/** Every cell the reads cover, as "r,s" keys (a whole row or column is each of its cells). */
export function cellsRead(reads: ProgramReads, table: DataTable): Set<string> {
  const keys = new Set<string>();
  for (const [r, s] of reads.cells) keys.add(`${r},${s}`);
  for (const r of reads.rows) table.series.forEach((_, s) => keys.add(`${r},${s}`));
  for (const s of reads.series) table.rows.forEach((_, r) => keys.add(`${r},${s}`));
  return keys;
}

/** The row labels the program reads one by one or whole (not through a whole column). */
export function rowsNamed(reads: ProgramReads, table: DataTable): string[] {
  const indexes = new Set([...reads.cells.map(([r]) => r), ...reads.rows]);
  return [...indexes].map((r) => table.rows[r]?.label ?? '').filter((label) => label !== '');
}

/** The series the program reads, by cell or whole. */
export function seriesNamed(reads: ProgramReads, table: DataTable): string[] {
  const indexes = new Set([...reads.cells.map(([, s]) => s), ...reads.series]);
  return [...indexes].map((s) => table.series[s] ?? '').filter((label) => label !== '');
}
