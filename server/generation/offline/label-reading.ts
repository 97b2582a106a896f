import type { ChartType } from '../../../shared/domain/chart-types';
import { colourWordsIn, GENERIC_COLOUR_WORDS } from '../../../shared/domain/colour-words';
import { normalizeLabel } from '../../../shared/table/labels';
import { questionText, tableMentions } from '../../../shared/table/label-mentions';
import type { DataTable } from '../../../shared/table/model';
import { runProgram } from '../../../shared/table/program';
import { literal, withoutFootnote } from './phrasing';
import { labelHalfUnit, labelNumber, numberAgreesWithLabel, type QuestionProgram } from './question-program';

/**
 * What the rules can still say about a factual question they could not program (no reading of
 * its words reproduces its label), so a model's task is not sent where it cannot work:
 * - `labelDisagreement`: the question's plainest reading — one cell it names, or the extreme of
 *   one series — gives another answer than the label ("the number of arrests in 1990?" labelled
 *   with 2008's value). ChartQA has such labels; an item built on one asks a question whose
 *   factual answer is wrong, and a model can only decline it.
 * - `standInPrograms`: programs that reproduce the label without reading the question — the one
 *   cell holding it, the series whose extreme it is ("which year is the red bar highest?" →
 *   the argmax of the series peaking in 2020). They do not say what the question asks; they say
 *   which proposals' operations can move such an answer, so a choice list offers those first.
 */

/** Words that make a question more than one cell or one extreme: it is then not read plainly. */
const NOT_PLAIN = /\b(average|mean|median|sum|total|combined|together|differ\w*|gap|change[sd]?|increas\w*|decreas\w*|grow\w*|rise|rose|fall|fell|drop\w*|declin\w*|ratio|times|how many|count|more than|less than|fewer|above|below|over|under|exceed\w*|compared?|than|between|from|since|after|before|until|during|first|last|second|third|fourth|fifth|2nd|3rd|4th|5th|median|middle|rank\w*|percent\w* of|share of|per ?cent|proportion)\b/;
const MAX_WORDS = /\b(highest|largest|biggest|greatest|most|maximum|peak|peaked|top|leader|leading|led|lead|leads|dominated?|tallest|longest|strongest)\b/;
const MIN_WORDS = /\b(lowest|smallest|least|fewest|minimum|shortest|weakest)\b/;
const ASKS_LABEL = /^\s*(which|who|in which|in what|what (year|country|region|company|brand|team|player|state|city|category|month))\b/;

export interface LabelDisagreement {
  /** What the plain reading reads, in words ("1990's Number of arrests"). */
  reading: string;
  /** Its answer on the table. */
  value: string;
}

export function labelDisagreement(query: string, label: string, table: DataTable, chartType?: ChartType): LabelDisagreement | null {
  const q = questionText(query);
  const labels = [...table.series, ...table.rows.map((row) => row.label)];
  const oneColour = table.series.length === 1 && chartType !== 'pie';
  // A colour or a position needs the image; a Yes/No asks a comparison, not a value.
  if ((!oneColour && colourWordsIn(query, labels).length > 0) || /^(yes|no)$/i.test(label.trim()) || NOT_PLAIN.test(q)) return null;
  const { rows, series } = tableMentions(query, table.rows.map((row) => row.label), table.series);
  const named = series.length === 1 && series[0] ? series[0].label : null;
  if (table.series.length > 1 && named === null) return null;
  const column = named === null ? 'series()' : `series(${literal(named)})`;
  const wantsMax = MAX_WORDS.test(q);
  const wantsMin = MIN_WORDS.test(q);
  if (rows.length === 1 && rows[0] && !wantsMax && !wantsMin) {
    const row = rows[0].label;
    const result = runProgram(table, named === null ? `value(${literal(row)})` : `value(${literal(row)}, ${literal(named)})`);
    // As a program must reproduce it (question-program.ts): the benchmark's 5 % would let 2008's 14,005,615 arrests pass for 1990's 14,195,100.
    if (!result.ok || typeof result.value !== 'number' || labelNumber(label) === null || numberAgreesWithLabel(result.value, label)) return null;
    return { reading: `${row}'s ${named ?? table.series[0] ?? 'value'}`, value: result.answer };
  }
  if (rows.length === 0 && wantsMax !== wantsMin && ASKS_LABEL.test(q)) {
    const wanted = normalizeLabel(withoutFootnote(label));
    if (!table.rows.some((row) => normalizeLabel(withoutFootnote(row.label)) === wanted)) return null;
    const result = runProgram(table, `${wantsMax ? 'argmax' : 'argmin'}(${column})`);
    if (!result.ok || typeof result.value !== 'string' || normalizeLabel(withoutFootnote(result.value)) === wanted) return null;
    return { reading: `the ${wantsMax ? 'highest' : 'lowest'} ${named ?? table.series[0] ?? 'value'}`, value: result.answer };
  }
  return null;
}

/** Words that make a Yes/No question a comparison or an aggregate rather than a value check. */
const NOT_A_VALUE_CHECK = /\b(greater|less|more|fewer|higher|lower|larger|smaller|bigger|than|above|below|over|under|exceed\w*|at least|at most|between|sum|total|average|mean|median|differ\w*|twice|times|double|half|ratio|increas\w*|decreas\w*|highest|lowest|largest|smallest|maximum|minimum)\b/;

/**
 * "Is the value of the light green bar 35 in 1989?": a Yes/No that asks whether one value is a
 * stated number. Any assumption that moves it answers No, and one that sets it answers Yes, from
 * the assumption alone (a strict reviewer's "answer follows from the assumption"), so no proposal
 * makes an item of it. The number must be one the table holds, so it is the value asked about.
 */
export function asksStatedValue(query: string, label: string, table: DataTable): boolean {
  const q = questionText(query);
  if (!/^(yes|no)$/i.test(label.trim()) || !/^\s*(is|was|are|were|does|did)\b/.test(q) || NOT_A_VALUE_CHECK.test(q)) return false;
  const { rows, series } = tableMentions(query, table.rows.map((row) => row.label), table.series);
  const named = [...rows, ...series];
  const stated = [...q.matchAll(/(?<![\w.])(\d[\d,]*(?:\.\d+)?)\s*%?/g)].filter((m) => !named.some((mention) => m.index >= mention.at && m.index < mention.end));
  const cells = table.rows.flatMap((row) => row.values.filter((value): value is number => value !== null));
  return stated.length === 1 && stated.some((m) => cells.some((value) => Math.abs(value - Number((m[1] ?? '').replace(/,/g, ''))) <= labelHalfUnit(m[1] ?? '') + 1e-9));
}


/** Words that make "what colour is the largest bar" a reading of the data: an edit can move which bar that is. */
const RANKED = /\b(largest|smallest|highest|lowest|biggest|tallest|shortest|longest|most|least|maximum|minimum|median|second|third|top|bottom|first|last|dominat\w*|more|less|greater|fewer)\b/;

/**
 * "Which country is represented by the red line?", "the blue line belongs to what?", and the other
 * way, "What color does China represent?" (label: Pink): the answer is the legend's pairing of a
 * colour with a name, which no change to the data moves.
 */
export function asksWhatColourStandsFor(query: string, label: string, table: DataTable): boolean {
  const labels = [...table.series, ...table.rows.map((row) => row.label)];
  if (asksColourOfName(query, label, labels)) return true;
  if (!colourWordsIn(query, labels).some((word) => !GENERIC_COLOUR_WORDS.has(word))) return false;
  if (!/\b(represent\w*|belongs?|stands? for|denot\w*|indicat\w*|refers? to|depict\w*|shows? which)\b/.test(questionText(query))) return false;
  const wanted = normalizeLabel(withoutFootnote(label));
  return labels.some((name) => normalizeLabel(withoutFootnote(name)) === wanted);
}

/** The label is a colour, and the question asks the colour of a name the table holds, by no rank. */
function asksColourOfName(query: string, label: string, labels: readonly string[]): boolean {
  const colours = colourWordsIn(label);
  if (colours.length === 0 || colours.some((word) => GENERIC_COLOUR_WORDS.has(word))) return false;
  const q = questionText(query);
  if (!/\b(what|which) colou?r\b|\bcolou?r (of|for)\b/.test(q) || RANKED.test(q)) return false;
  const { rows, series } = tableMentions(query, labels, []);
  return rows.length + series.length > 0;
}

/** Programs reproducing the label from the table alone (see above): the cell holding it, the series it tops or bottoms. */
export function standInPrograms(label: string, table: DataTable): QuestionProgram[] {
  const out: QuestionProgram[] = [];
  const multi = table.series.length > 1;
  const wanted = normalizeLabel(withoutFootnote(label));
  if (table.rows.some((row) => normalizeLabel(withoutFootnote(row.label)) === wanted)) {
    for (const name of table.series) {
      const column = multi ? `series(${literal(name)})` : 'series()';
      for (const fn of ['argmax', 'argmin'] as const) {
        const result = runProgram(table, `${fn}(${column})`);
        if (result.ok && typeof result.value === 'string' && normalizeLabel(withoutFootnote(result.value)) === wanted) {
          out.push({ program: `${fn}(${column})`, shape: fn, rows: [], series: multi ? [name] : [], answer: result.answer, seriesSettledByLabel: true });
        }
      }
    }
    return out;
  }
  const target = labelNumber(label);
  if (target === null) return out;
  const holding = table.rows.flatMap((row) =>
    table.series.flatMap((name, s) => {
      const value = row.values[s];
      return typeof value === 'number' && Math.abs(value - target) <= labelHalfUnit(label) + 1e-9 ? [{ row: row.label, name }] : [];
    }),
  );
  // A value printed on several bars does not say which one the question reads.
  if (holding.length !== 1 || !holding[0]) return out;
  const { row, name } = holding[0];
  const program = multi ? `value(${literal(row)}, ${literal(name)})` : `value(${literal(row)})`;
  const result = runProgram(table, program);
  if (result.ok) out.push({ program, shape: 'lookup', rows: [row], series: multi ? [name] : [], answer: result.answer, seriesSettledByLabel: true });
  return out;
}
