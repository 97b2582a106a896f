import { tableFromCells, type DataTable } from '../../shared/table/model';

/**
 * Test factory: a table from `|`-separated lines, header first, cells as raw text
 * (`nan`, `75%` and `12*` work as in ChartQA files). `|` because labels contain commas.
 */
export function buildTable(text: string): DataTable {
  const lines = text
    .trim()
    .split('\n')
    .map((line) => line.split('|').map((cell) => cell.trim()));
  const [header = [], ...body] = lines;
  return tableFromCells(header, body);
}

/** Two series, four rows, one missing cell: enough for every edit op. */
export function buildSalesTable(): DataTable {
  return buildTable(`
    Year   | Online | Offline
    2017   | 10     | 90
    2018   | 12.5   | 87.5
    2019*  | nan    | 85
    2020   | 20     | 80
  `);
}

/** One series of shares, like a Statista pie. */
export function buildPieTable(): DataTable {
  return buildTable(`
    Characteristic         | Share of respondents
    Yes                    | 16%
    No, but I plan to soon | 11%
    No, and I don't plan to| 73%
  `);
}
