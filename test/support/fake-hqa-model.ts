import { parse } from 'csv-parse/sync';
import { jsonReply, type FakeChatRequest, type FakeHandler, type FakeReply } from './fake-openai';

/** The structured-output schema name a request asks for (`proposal_batch`, `hqa_item`), if any. */
export function schemaName(chat: FakeChatRequest): string | null {
  const format = chat.response_format;
  return format?.type === 'json_schema' ? format.json_schema.name : null;
}

/** Row and series labels, as the Stage 2 prompt lists them (a repair request carries it earlier on). */
export function promptLabels(chat: FakeChatRequest): { rows: string[]; series: string[] } {
  const user = chat.messages
    .filter((m) => m.role === 'user')
    // A chart with a stored image is sent as [image_url, text] parts: the prompt is the text part.
    .map((m) => (typeof m.content === 'string' ? m.content : (m.content ?? []).map((part) => part.text ?? '').join('\n')))
    .join('\n');
  const rows = /Row labels: (\[.*\])/.exec(user)?.[1];
  const series = /Series names: (\[.*\])/.exec(user)?.[1];
  if (!rows || !series) throw new Error('the Stage 2 prompt did not list the row labels and series names');
  return { rows: JSON.parse(rows) as string[], series: JSON.parse(series) as string[] };
}

/** The data table a Stage 2 prompt carries, as CSV records (header first). */
function promptTable(chat: FakeChatRequest): string[][] {
  const user = chat.messages
    .filter((m) => m.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : (m.content ?? []).map((part) => part.text ?? '').join('\n')))
    .join('\n');
  const csv = /Data table \(CSV\):\n([\s\S]*?)\n\n/.exec(user)?.[1];
  if (!csv) throw new Error('the Stage 2 prompt did not carry its data table');
  return parse(csv, { relax_column_count: true }) as string[][];
}

const numberOf = (cell: string | undefined) => {
  const text = (cell ?? '').replace(/[%,$€£*\s]/g, '');
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : null;
};

/** The factual label a Stage 2 prompt gives for its question (the last `Label:` line: the examples' come first). */
function promptLabel(chat: FakeChatRequest): string | null {
  const user = chat.messages
    .filter((m) => m.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : (m.content ?? []).map((part) => part.text ?? '').join('\n')))
    .join('\n');
  const labels = [...user.matchAll(/^Label: (.*)$/gm)];
  return labels.at(-1)?.[1]?.trim() ?? null;
}

const PERIOD = /^(?:Q[1-4]\s*)?(?:1[89]|20)\d{2}\b/;
const nullOp = { row: null, series: null, value: null, factor: null, delta: null, rows: null, values: null };

/**
 * A correct Stage 2 answer for any table, one a strict reviewer's checks accept, as a careful
 * model writes it: two neighbouring rows swap their values in every series (a whole stays whole,
 * a count a count, a line takes no step it has not taken, nothing is stated in the assumption)
 * where no value more than doubles or halves, and the item asks for the first row's new value in
 * the series where it moves most (by more than a tenth), one not within 5 % of the factual label. Where no swap is
 * plausible (periods never trade values: it rewrites history; every pair far apart) one value rises by a fifth
 * (over time, the whole series by that amount).
 */
export function correctItem(chat: FakeChatRequest) {
  const { rows, series } = promptLabels(chat);
  const [, ...records] = promptTable(chat);
  const label = promptLabel(chat);
  const labelNumber = numberOf(label ?? undefined);
  const farFromLabel = (value: number) => labelNumber === null || Math.abs(value - labelNumber) > 0.05 * Math.max(Math.abs(labelNumber), 1e-9);
  const periods = rows.length > 0 && rows.every((row) => PERIOD.test(row));
  let best: { first: string; second: string; s: number; after: number; gap: number } | null = null;
  for (let r = 0; r + 1 < records.length && !periods; r++) {
    const cells = series.map((_, s) => [numberOf(records[r]?.[s + 1]), numberOf(records[r + 1]?.[s + 1])] as const);
    const plausible = cells.every(([a, b]) => a === null || b === null || (a > 0 && b > 0 && Math.max(a, b) / Math.min(a, b) <= 1.9) || a === b);
    if (!plausible) continue;
    cells.forEach(([before, after], s) => {
      if (before === null || after === null || before === after || !farFromLabel(after)) return;
      const gap = Math.abs(after - before) / Math.max(Math.abs(before), 1e-9);
      // Within the relaxed 5 % a scorer allows, the answer has not changed.
      if (gap <= 0.1) return;
      if (best === null || gap > best.gap) best = { first: rows[r] ?? '', second: rows[r + 1] ?? '', s, after, gap };
    });
  }
  if (best !== null) {
    const { first, second, s, after } = best as { first: string; second: string; s: number; after: number };
    const name = series[s] ?? '';
    const assumption = `Suppose the values of ${first} and ${second} were swapped.`;
    return {
      assumption,
      question: `${assumption} What would the value of ${first} be?`,
      rationale: `${first} takes ${second}'s ${after}.`,
      edit: [{ ...nullOp, op: 'swap', rows: [first, second] }],
      program: `value(${JSON.stringify(first)}, ${JSON.stringify(name)})`,
      answer: String(after),
      answer_type: Number.isInteger(after) ? 'integer' : 'decimal',
      affects_answer: true,
    };
  }
  // One value up by a fifth (whole numbers stay whole), the first cell far enough from the label.
  for (let r = 0; r < records.length; r++) {
    for (let s = 0; s < series.length; s++) {
      const before = numberOf(records[r]?.[s + 1]);
      if (before === null || before <= 0) continue;
      const integer = Number.isInteger(before);
      const delta = integer ? Math.max(1, Math.round(before * 0.2)) : Math.round(before * 0.2 * 10) / 10;
      const after = Math.round((before + delta) * 1000) / 1000;
      // A value at or under 100 (perhaps a share) does not pass 100.
      if (delta === 0 || !farFromLabel(after) || (before <= 100 && after > 100)) continue;
      const row = rows[r] ?? '';
      const name = series[s] ?? '';
      // Over time one period alone may not jump: the whole series moves, keeping its steps.
      const assumption = periods ? `Suppose every ${name} value were ${delta} higher.` : `Suppose the ${name} value of ${row} were ${delta} higher.`;
      return {
        assumption,
        question: `${assumption} What would the ${name} value of ${row} be?`,
        rationale: `${before} + ${delta} = ${after}.`,
        edit: [{ ...nullOp, op: 'add', row: periods ? null : row, series: series.length > 1 ? name : null, delta }],
        program: `value(${JSON.stringify(row)}, ${JSON.stringify(name)})`,
        answer: String(after),
        answer_type: Number.isInteger(after) ? 'integer' : 'decimal',
        affects_answer: true,
      };
    }
  }
  throw new Error('the fake model found no cell to change in the Stage 2 table');
}

/**
 * `correctItem` for an item over a chart group (`hqa_group_item`): the first chart's first cell
 * (the prompt lists chart 1's labels first), every op naming that chart, the program reading it.
 */
export function correctGroupItem(chat: FakeChatRequest) {
  const item = correctItem(chat);
  // value("row", "series") becomes value(1, "row", "series"): the first chart's cell.
  return { ...item, edit: item.edit.map((each) => ({ ...each, chart: 1 })), program: item.program.replace(/^value\(/, 'value(1, ') };
}

/** Whether a Stage 2 request lists proposals to choose from (the choose mode's wire: `hqa_item_choice`, `hqa_group_item_choice`). */
export const isChoiceRequest = (chat: FakeChatRequest) => /_choice$/.test(schemaName(chat) ?? '');

/** The proposals a choose-mode request lists, in order (their texts, as numbered 1, 2, … in the prompt). */
export function promptCandidates(chat: FakeChatRequest): string[] {
  const user = chat.messages
    .filter((m) => m.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : (m.content ?? []).map((part) => part.text ?? '').join('\n')))
    .join('\n');
  const list = /Proposals \(choose one by its number, or decline\):\n((?:\d+\. .*\n?)+)/.exec(user)?.[1];
  if (!list) throw new Error('the choose-mode prompt did not list its proposals');
  return list.trim().split('\n').map((line) => line.replace(/^\d+\. /, ''));
}

/** What a choose-mode reply does: take a listed proposal by its number, or decline with a reason. */
export type Choice = { proposal: number } | { decline: string };

/**
 * A choose-mode reply: the correct item under the proposal chosen (its keys after `proposal` and
 * `decline`), or a decline with every item key empty, as the prompt asks.
 */
export function chosenItem(chat: FakeChatRequest, choice: Choice) {
  if ('decline' in choice) {
    return { proposal: null, decline: choice.decline, assumption: '', question: '', rationale: '', edit: [], program: '', answer: '', answer_type: null, affects_answer: null };
  }
  const item = schemaName(chat) === 'hqa_group_item_choice' ? correctGroupItem(chat) : correctItem(chat);
  return { proposal: choice.proposal, decline: null, ...item };
}

/**
 * The correct Stage 2 reply in the shape the request asks for: one chart's item, a group's, or
 * (choose mode) either of them under the first listed proposal. For handlers that alter the item.
 */
export function correctReply(chat: FakeChatRequest) {
  if (isChoiceRequest(chat)) return chosenItem(chat, { proposal: 1 });
  return /group/.test(schemaName(chat) ?? '') ? correctGroupItem(chat) : correctItem(chat);
}

/**
 * A fake model that answers both stages correctly: Stage 1 with the given proposals (numbered
 * per call so they stay distinct), Stage 2 with `correctItem` (`correctGroupItem` over a group);
 * a request listing proposals gets that item under the `choose` choice (default: the first
 * listed). `delayMs` slows every reply.
 */
export function hqaModel(options: { proposals?: (call: number) => string[]; delayMs?: number; choose?: (chat: FakeChatRequest) => Choice } = {}): FakeHandler {
  let calls = 0;
  return (chat): FakeReply => {
    const timing = options.delayMs ? { delayMs: options.delayMs } : {};
    if (schemaName(chat) === 'proposal_batch') {
      calls++;
      const proposals = options.proposals?.(calls) ?? [`Rotate the category order so that the ${calls}th smallest value leads the axis`];
      return jsonReply({ proposals }, timing);
    }
    if (isChoiceRequest(chat)) return jsonReply(chosenItem(chat, options.choose?.(chat) ?? { proposal: 1 }), timing);
    return jsonReply(schemaName(chat) === 'hqa_group_item' ? correctGroupItem(chat) : correctItem(chat), timing);
  };
}
