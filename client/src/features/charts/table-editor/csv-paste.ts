import type { EditedTable } from '@shared/api/tables';

/**
 * A pasted table as the editor's rows: comma-separated (CSV, with "quoted" cells) or
 * tab-separated (what a spreadsheet's copy puts on the clipboard), the first line the header
 * (row label header, then the series), each further line a row (label, then its cells).
 * Short rows are padded with empty cells and long ones keep their extra cells, so the editor
 * shows the mismatch the server would refuse rather than hiding data.
 */
export function parsePastedTable(text: string, title: string | null): EditedTable | { error: string } {
  const lines = text.replace(/\r\n?/g, '\n').split('\n').filter((line) => line.trim() !== '');
  if (lines.length < 2) return { error: 'paste a header line and at least one row' };
  const separator = lines[0]?.includes('\t') ? '\t' : ',';
  const [header = [], ...body] = lines.map((line) => splitLine(line, separator));
  const [labelHeader = '', ...series] = header;
  if (series.length === 0) return { error: 'the header line names no series (after the row label header)' };
  return {
    title,
    label_header: labelHeader,
    series,
    rows: body.map(([label = '', ...cells]) => ({ label, cells: cells.length >= series.length ? cells : [...cells, ...Array<string>(series.length - cells.length).fill('')] })),
  };
}

/** One line's cells; `"a, b"` is one cell and `""` inside quotes is a quote. */
function splitLine(line: string, separator: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i] as string;
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (char === separator) {
      cells.push(cell.trim());
      cell = '';
    } else cell += char;
  }
  cells.push(cell.trim());
  return cells;
}
