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

/**
 * ChartQA's grouped bars of how secure people feel using each way of communicating (blank cells
 * are missing bars). Row totals 95, 93, 127, 123, 72, 98: the largest category by total is not the
 * median of any one series it tops.
 */
export function buildSecurityTable(): DataTable {
  return buildTable(`
    Entity                     | Very secure | Somewhat secure | Not very secure | Not at all secure
    Using social media sites   |             | 14              | 28              | 53
    Using chat or IM           | 25          | 36              | 32              | 0
    Sending email              | 35          | 35              | 36              | 21
    Sending text messages      | 32          | 32              | 37              | 22
    Calling on your cell phone |             | 43              | 29              |
    Using a landline           | 16          | 51              | 19              | 12
  `);
}

/** ChartQA's monthly approval line, zeros as the table has them: May 51 → Jun 49, so the last change is −2. */
export function buildApprovalTable(): DataTable {
  return buildTable(`
    Month | Approve | Disapprove
    Jan   | 52      | 0
    Feb   | 51      | 0
    Mar   | 0       | 0
    Apr   | 0       | 0
    May   | 51      | 0
    Jun   | 49      | 0
  `);
}
