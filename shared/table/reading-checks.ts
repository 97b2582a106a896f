import { axisDirection } from './axis-order';
import { diffTables } from './edit-apply';
import { tableMentions } from './label-mentions';
import type { Finding } from './lint';
import type { DataTable } from './model';
import { programReads, rowsNamed, seriesNamed } from './program/reads';

/**
 * Does the program compute what the question asks? The verifier can only rerun the program it
 * is given; a program that reads the Technical series for a question about senior level, or
 * one year's column for "the highest over the years", reproduces a number and still answers
 * another question. And does the edit keep what the question counts whole?
 */

export interface ReadingInput {
  /** The question as asked, without its assumption. */
  question: string;
  program: string;
  title: string;
  original: DataTable;
  edited: DataTable;
}

/** "Over the years", "in every year", "from 2009 to 2019": the question is about more than one period. */
const ACROSS_PERIODS = /\b(over the years|over the (whole |entire )?period|across (the |all (the )?)?years|in all (the )?years|all (the )?years|every year|each year|throughout|over time|from (19|20)\d\d(\/\d+)?\*? (to|until|through|till) (19|20)\d\d|between (19|20)\d\d(\/\d+)?\*? and (19|20)\d\d)\b/i;

export function readingFindings(input: ReadingInput): Finding[] {
  const reads = programReads(input.program, input.edited);
  if (reads === null) return [];
  const findings: Finding[] = [];
  const { edited } = input;
  const named = tableMentions(input.question, edited.rows.map((row) => row.label), edited.series);
  const askedRows = new Set(named.rows.map((m) => m.label));
  const askedSeries = new Set(named.series.map((m) => m.label));
  const readRows = rowsNamed(reads, edited);
  const readSeries = seriesNamed(reads, edited);
  const other = (read: readonly string[], asked: ReadonlySet<string>) => {
    const unasked = read.filter((label) => !asked.has(label));
    const unread = [...asked].filter((label) => !read.includes(label));
    return unasked.length > 0 && unread.length > 0 ? { unasked, unread } : null;
  };
  const rowMismatch = other(readRows, askedRows);
  if (rowMismatch) {
    findings.push({
      code: 'reads_other_label',
      severity: 'error',
      message: `the program reads the row ${list(rowMismatch.unasked)}, which the question does not name, but not ${list(rowMismatch.unread)}, which it does: it answers another question`,
    });
  }
  if (edited.series.length > 1) {
    const seriesMismatch = other(readSeries, askedSeries);
    // "What ethnicity were 4.3 percent of senior level employees?" names no series of
    // Technical, Non-technical, Leadership: a program reading one of them has picked it itself.
    if (askedSeries.size === 0 && readSeries.length > 0 && readSeries.length < edited.series.length) {
      findings.push({
        code: 'reads_other_label',
        severity: 'warning',
        message: `the program reads the series ${list(readSeries)}, but the question names none of the chart's ${edited.series.length} series: check that it is the one the question means`,
      });
    }
    if (seriesMismatch) {
      findings.push({
        code: 'reads_other_label',
        severity: 'error',
        message: `the program reads the series ${list(seriesMismatch.unasked)}, which the question does not name, but not ${list(seriesMismatch.unread)}, which it does: it answers another question`,
      });
    }
  }
  const period = singlePeriod(input, readRows, readSeries);
  if (period) findings.push(period);
  return findings;
}

function list(labels: readonly string[]): string {
  return labels.map((label) => JSON.stringify(label)).join(', ');
}

/** "Which country was highest over the years?" read from one year's column (or row) alone. */
function singlePeriod({ question, edited }: ReadingInput, readRows: readonly string[], readSeries: readonly string[]): Finding | null {
  if (!ACROSS_PERIODS.test(question)) return null;
  const rowPeriods = axisDirection(edited.rows.map((row) => row.label)) !== null ? edited.rows.map((row) => row.label) : [];
  const seriesPeriods = edited.series.length >= 3 && axisDirection(edited.series) !== null ? [...edited.series] : [];
  const check = (periods: readonly string[], read: readonly string[]) => {
    if (periods.length < 3) return null;
    const readPeriods = read.filter((label) => periods.includes(label));
    return readPeriods.length === 1 ? readPeriods[0] : null;
  };
  const only = check(rowPeriods, readRows) ?? check(seriesPeriods, readSeries);
  if (only === null || only === undefined) return null;
  return {
    code: 'single_period',
    severity: 'error',
    message: `the question asks across the periods, but the program reads ${JSON.stringify(only)} alone`,
  };
}

/** Words of a title or question that say the values count things. */
const COUNT_WORDS =
  /\b(number of|numbers of|count of|how many)\b|\b(companies|firms|stores|shops|people|persons|students|employees|users|visitors|passengers|deaths|births|cases|arrests|goals|seats|votes|wins|players|patients|members|subscribers|tourists|rigs|vehicles|households|plants|hospitals|schools|restaurants|hotels|branches|outlets|games|titles|medals|points scored)\b/i;
/** Words that make whole-numbered values amounts of a unit rather than counts (75 million users can grow by half). */
const SCALED_UNITS = /\b(thousands?|millions?|billions?|trillions?|hundreds?|in 1,?000s?|per|average|avg|mean|median|rate|ratio|share|percent|percentage|index|dollars?|euros?|pounds|yen|tons?|tonnes|kg|km|miles|meters|metres|liters|litres|mw|gw|kwh|btu|barrels)\b|[%$€£]/i;
/** "How many quadrillion BTU", "how many million dollars": a lookup, not a count. */
const HOW_MANY_MEASURE = /\bhow many (quadrillion|trillion|billion|million|thousand|hundred|percent|percentage|points|dollars|euros|pounds|yen|tons|tonnes|kilograms|kilos|grams|liters|litres|barrels|hours|minutes|seconds|days|weeks|months|years|kilometers|km|miles|meters|metres|degrees|times|calories|kwh|watts|megawatts|gigawatts|square|cubic|acres|hectares|gallons|btu|units of)\b/i;

/**
 * Cells the edit made fractional in a column of whole numbers that the chart's title, the
 * column's header or a "how many" question says are counts: 180.5 companies, 23.25 rigs.
 */
export function countFindings({ question, title, original, edited }: Omit<ReadingInput, 'program'>): Finding[] {
  const findings: Finding[] = [];
  const asksCount = /\bhow many\b/i.test(question) && !HOW_MANY_MEASURE.test(question);
  const changes = diffTables(original, edited);
  const originalLabels = new Set(original.rows.map((row) => row.label));
  const added = edited.rows.filter((row) => !originalLabels.has(row.label));
  for (const name of edited.series) {
    const s = original.series.indexOf(name);
    const values = s === -1 ? [] : original.rows.map((row) => row.values[s]).filter((v): v is number => v !== null && v !== undefined);
    if (values.length < 2 || !values.every((v) => Number.isInteger(v) && v >= 0)) continue;
    // The question counts too: "the sum of the maximum number of companies" reads a count of companies.
    const questionCounts = asksCount || (/\b(number|numbers|count) of\b/i.test(question) && !HOW_MANY_MEASURE.test(question));
    if (SCALED_UNITS.test(`${name} ${title} ${question}`)) continue;
    if (!questionCounts && !COUNT_WORDS.test(`${name} ${original.label_header} ${title}`)) continue;
    const e = edited.series.indexOf(name);
    const fractional = [
      ...changes.filter((change) => change.series === name && change.after !== null && !Number.isInteger(change.after)).map((change) => `${JSON.stringify(change.row)} = ${change.after}`),
      ...added.filter((row) => row.values[e] !== null && row.values[e] !== undefined && !Number.isInteger(row.values[e])).map((row) => `${JSON.stringify(row.label)} = ${row.values[e]}`),
    ];
    if (fractional.length === 0) continue;
    findings.push({
      code: 'count_not_integer',
      severity: 'error',
      message: `${JSON.stringify(name)} counts things (whole numbers${asksCount ? ', and the question asks how many' : ''}), but the edit makes ${fractional.slice(0, 5).join(', ')}; a count stays whole`,
    });
  }
  return findings;
}
