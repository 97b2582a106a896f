import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CONSTRAINT_CLAUSES } from '../../shared/generation/proposal-constraints';
import { STEP_MULTIPLE } from '../../shared/table/change-magnitude';
import { describe, expect, it } from 'vitest';
import { CHART_TYPE_LABELS, CHART_TYPES, type ChartType } from '../../shared/domain/chart-types';
import { ModelEditOpSchema, ModelItemOutputSchema, toItemDraft } from '../../shared/generation/model-output';
import { answersAgree } from '../../shared/table/answer-compare';
import { RELAXED_TOLERANCE, relaxedCorrect } from '../../shared/table/answers';
import { tableFromCells, type DataTable } from '../../shared/table/model';
import { verifyItem, type VerifierResult } from '../../shared/table/verify';
import type { QaWithChart } from '../charts/chart-queries';
import { parseTableCsv } from '../import/csv-table';
import { questionRelation } from '../language/question-relation';
import { USER_MARKER } from '../llm/templates';
import { DEFAULT_MAX_CHANGE_SHARE } from '../../shared/table/change-magnitude';
import { PARTIAL_WHOLE_FLOOR } from '../../shared/table/wholes';
import { ModelChoiceItemOutputSchema } from '../../shared/generation/choice-output';
import { itemMessages, ModelGroupChoiceItemOutputSchema, ModelGroupItemOutputSchema, stage2Wire, toGroupItemDraft, type ModelGroupItemOutput } from './stage-prompts';

/**
 * The Stage 2 prompts say what the server checks: their worked examples are read from the
 * template files themselves, filled in the exact wire shape the strict schema sends, and run
 * through the reply reader and the verifier; and everything that does not depend on the chart
 * comes first, byte for byte the same in every request, so an endpoint's prompt cache serves it.
 */

const promptFile = (name: string) => readFileSync(fileURLToPath(new URL(`../../prompts/${name}.md`, import.meta.url)), 'utf8');
const systemPart = (text: string) => text.slice(0, text.indexOf(USER_MARKER));
const SINGLE = systemPart(promptFile('stage2-item'));
const GROUP = systemPart(promptFile('stage2-group-item'));

const field = (block: string, name: string): string => {
  const value = new RegExp(`^${name}: (.*)$`, 'm').exec(block)?.[1];
  if (value === undefined) throw new Error(`the example has no "${name}:" line:\n${block}`);
  return value;
};
const replyOf = (block: string): unknown => JSON.parse(/^Reply:\n(.*)$/m.exec(block)?.[1] ?? 'null');
/** The CSV lines after a "Data table (CSV):" line, up to the next line that is not a table row. */
const csvAfter = (block: string, from = 0): string => {
  const start = block.indexOf('Data table (CSV):\n', from) + 'Data table (CSV):\n'.length;
  const lines: string[] = [];
  for (const line of block.slice(start).split('\n')) {
    if (line === '' || /^(Chart \d|Factual question|Reply)/.test(line)) break;
    lines.push(line);
  }
  return `${lines.join('\n')}\n`;
};

/** `text` as a pattern that lets the prompt wrap its lines anywhere between words. */
const phrase = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'));

/** The keys an object carries, in order: strict output writes them in the schema's order. */
const keysOf = (value: unknown) => Object.keys(value as object);

/** What every worked example must show the verifier: the item recomputes, changes the answer and the lint has nothing to say. */
function expectVerified(result: VerifierResult, reply: { answer: string; answer_type: string }, label: string, tables: DataTable[]): void {
  expect(result.error).toBeNull();
  expect(result.lint).toEqual([]);
  expect(result.match).toBe(true);
  expect(answersAgree(result.recomputed_answer ?? '', reply.answer, tables)).toBe(true);
  expect(result.answer_type).toBe(reply.answer_type);
  expect(answersAgree(result.original_answer ?? '', label, tables)).toBe(true);
  expect(result.answer_unchanged).toBe(false);
  expect(result.proposal_consistent).toBe(true);
}

describe('the Stage 2 prompt describes the wire schema', () => {
  it.each([
    ['stage2-item', SINGLE],
    ['stage2-group-item', GROUP],
  ])('%s lists the reply keys in the order and number the schema has', (_, prompt) => {
    const reply = prompt.slice(prompt.indexOf('# The reply'), prompt.indexOf('# What the server checks'));
    const keys = [...reply.matchAll(/^- "(\w+)":/gm)].map((match) => match[1]);
    expect(keys).toEqual(keysOf(ModelItemOutputSchema.shape));
    expect(keys).toHaveLength(8);
    expect(reply).toContain('One JSON object with these eight keys, in this order, every key always present');
  });

  it.each([
    ['stage2-item', SINGLE, keysOf(ModelEditOpSchema.shape)],
    ['stage2-group-item', GROUP, keysOf(ModelGroupItemOutputSchema.shape.edit.element.shape)],
  ])('%s names every key of an edit operation, and says unused ones are null', (_, prompt, opKeys) => {
    const sentence = /Every operation has all (\w+) keys ((?:"\w+",?\s*)+): the ones its op uses filled, the rest null\./.exec(prompt);
    expect(sentence).not.toBeNull();
    expect([...(sentence?.[2] ?? '').matchAll(/"(\w+)"/g)].map((match) => match[1])).toEqual(opKeys);
    expect(sentence?.[1]).toBe({ 8: 'eight', 9: 'nine' }[opKeys.length]);
    // Every op the wire accepts has its line.
    for (const op of ModelEditOpSchema.shape.op.options) expect(prompt).toMatch(new RegExp(`"${op}": "`));
  });

  it('states the rules the server applies: the unchanged rule, label comparison, the image, footnote marks, the program limits', () => {
    for (const prompt of [SINGLE, GROUP]) {
      expect(prompt).toMatch(phrase(`any other number within ${RELAXED_TOLERANCE * 100}% (ChartQA's relaxed tolerance)`));
      expect(prompt).toMatch(phrase(`numbers within ${RELAXED_TOLERANCE * 100}% of each other), the item is not kept`));
      expect(prompt).toMatch(/Unchanged: when the results (on|over) the real and the edited (table|charts) agree under that comparison/);
      expect(prompt).toMatch(phrase('as a label, that exact label (case, spacing and a trailing `*` aside)'));
      expect(prompt).toMatch(/The images?, when attached/);
      expect(prompt).toMatch(/against the tables?\s+alone:\s+work\s+from\s+the\s+tables?,\s+and\s+if\s+(the|an)\s+image\s+plainly\s+disagrees/);
      expect(prompt).toMatch(phrase('say what differs in the rationale'));
      expect(prompt).toMatch(phrase('Write labels exactly, marks included, in "edit" and "program"; without the mark ("London", "2021") in the assumption, question, rationale and answer.'));
      expect(prompt).toMatch(phrase('never a list'));
      expect(prompt).toMatch(phrase('rows() and series_names() are label lists only count() takes'));
      expect(prompt).toMatch(phrase('nothing about colours or positions'));
    }
  });
});

describe('the Stage 2 prompt states what keeps an item from being stored', () => {
  it.each([
    ['stage2-item', SINGLE],
    ['stage2-group-item', GROUP],
  ])('%s names the error findings with the thresholds the checks use', (_, prompt) => {
    const checks = prompt.slice(prompt.indexOf('# What the server checks'), prompt.indexOf('# A list of proposals'));
    expect(checks).toMatch(phrase('A program or edit that fails is never kept, nor is an item with one of these errors'));
    expect(checks).toMatch(phrase(`a value cut by more than ${Math.round(DEFAULT_MAX_CHANGE_SHARE * 100)}%, or raised past ×${Math.round(1 / (1 - DEFAULT_MAX_CHANGE_SHARE))} (a share: past ×${Math.round(1 / (1 - DEFAULT_MAX_CHANGE_SHARE))} and by more than half its column's range)`));
    expect(checks).toMatch(phrase(`rows that made up most of a whole stay within ${PARTIAL_WHOLE_FLOOR}-100`));
    const times: Record<number, string> = { 1.5: 'one and a half times', 2: 'twice', 3: 'three times' };
    expect(checks).toMatch(phrase(`by more than ${times[STEP_MULTIPLE] ?? STEP_MULTIPLE} the series' largest step between periods`));
    // Each clause a revision can end in is named, as proposal-constraints.ts writes it (up to its parenthesis).
    for (const clause of Object.values(CONSTRAINT_CLAUSES)) expect(checks).toMatch(phrase(clause.replace(/ \(.*\)$/, '')));
    for (const words of ['any column or row of shares that summed to 100', 'NET or Total column or row follows its parts', 'no part passes the series named as its whole', 'a rank clause', 'an assumption that alone decides the answer', 'an added row as the answer', 'one period for a question across the periods', 'the series\' largest step between periods', 'made fractional or negative', 'a broken constraint', 'the assumption of an item reviewers rejected for this question']) {
      expect(checks).toMatch(phrase(words));
    }
  });

  it.each([
    ['stage2-item', SINGLE],
    ['stage2-group-item', GROUP],
  ])('%s says how to choose from a list and how to decline, with the keys the choice wire puts first', (_, prompt) => {
    const list = prompt.slice(prompt.indexOf('# A list of proposals'), prompt.indexOf('# Edit operations'));
    const [first, second] = keysOf(ModelChoiceItemOutputSchema.shape);
    expect(list).toMatch(phrase(`two more keys: "${first}", the number of the one your item performs, and "${second}", null`));
    expect(list).toMatch(phrase(`decline: "${first}" null, "${second}" one sentence saying why, the other keys empty`));
  });
});

describe('the Stage 2 worked examples', () => {
  const blocks = SINGLE.split(/^(?=Example \d+ \()/m).slice(1);
  // A block with one proposal shows the eight-key reply; the block with a list, the choose mode (below).
  const examples = blocks
    .filter((block) => /^Proposal: /m.test(block))
    .map((block) => ({
      chartType: /^Example \d+ \((\w+)\)/m.exec(block)?.[1],
      title: field(block, 'Title'),
      csv: csvAfter(block),
      question: field(block, 'Factual question'),
      label: field(block, 'Label'),
      proposal: field(block, 'Proposal'),
      reply: replyOf(block),
    }));

  it('are few: two with one proposal, one with a list', () => {
    expect(examples).toHaveLength(2);
    expect(blocks).toHaveLength(3);
  });

  it.each(examples.map((example, index) => [index + 1, example] as const))(
    'example %i is the exact wire shape, reads as a draft, and the verifier recomputes its answer, changed by the assumption',
    (_, example) => {
      const chartType = CHART_TYPES.find((type) => type === example.chartType);
      expect(chartType).toBeDefined();
      // Exactly the wire's keys, in its order, every op with every field (null where unused).
      expect(keysOf(example.reply)).toEqual(keysOf(ModelItemOutputSchema.shape));
      const wire = ModelItemOutputSchema.parse(example.reply);
      for (const op of wire.edit) expect(keysOf(op)).toEqual(keysOf(ModelEditOpSchema.shape));
      const read = toItemDraft(wire);
      if (!read.ok) throw new Error(read.reason);
      // Nothing was filler the reader had to drop.
      expect(read.value.notes).toEqual([]);
      const { draft } = read.value;

      const table = parseTableCsv(example.csv, 'example');
      const result = verifyItem({ table, chartType: chartType as ChartType, title: example.title, edit: draft.edit, program: draft.program, answer: draft.answer, assumption: draft.assumption, proposal: example.proposal });
      expectVerified(result, draft, example.label, [table]);
      expect(draft.question.startsWith(`${draft.assumption} `)).toBe(true);
      expect(questionRelation(example.question, draft.question, draft.assumption)).toBe('same');
      expect(draft.affects_answer).toBe(!relaxedCorrect(draft.answer, example.label));
      // Prose drops footnote marks; the edit and program keep the table's labels.
      for (const text of [draft.assumption, draft.question, draft.rationale, draft.answer]) expect(text).not.toContain('*');
    },
  );

  it('show a footnote-marked label exact in the edit and without its mark in the answer', () => {
    const marked = examples.find((example) => /^[^,\n]+\*,/m.test(example.csv));
    expect(marked).toBeDefined();
    const reply = ModelItemOutputSchema.parse(marked?.reply);
    expect(reply.edit.some((op) => op.row?.endsWith('*'))).toBe(true);
  });

  it('the choose-mode example chooses a listed proposal in the exact wire shape, the verifier agrees, and its decline reads as a decline', () => {
    const block = blocks.find((each) => /^Proposals:$/m.test(each));
    if (!block) throw new Error('no example with a list of proposals');
    const chartType = CHART_TYPES.find((type) => type === /^Example \d+ \((\w+)\)/m.exec(block)?.[1]);
    if (!chartType) throw new Error('the choose example names no chart type');
    const candidates = [...block.matchAll(/^(\d+)\. (.*)$/gm)].map((match) => ({ number: Number(match[1]), text: match[2] ?? '' }));
    expect(candidates.map((candidate) => candidate.number)).toEqual(candidates.map((_, index) => index + 1));
    const offer = { kind: 'choose' as const, candidates: candidates.map((candidate) => ({ id: 100 + candidate.number, text: candidate.text })) };
    const table = parseTableCsv(csvAfter(block), 'example');
    const title = field(block, 'Title');
    const label = field(block, 'Label');
    const source: QaWithChart = { qa: qa(field(block, 'Factual question'), label), chart: { id: 1, imgname: 'x.png', split: 'test', chart_type: chartType, title, table }, group: null };
    const wire = stage2Wire(source, offer);
    expect(wire.schema).toBe(ModelChoiceItemOutputSchema);

    const reply = replyOf(block);
    expect(keysOf(reply)).toEqual(keysOf(ModelChoiceItemOutputSchema.shape));
    expect(keysOf(ModelChoiceItemOutputSchema.shape).slice(0, 2)).toEqual(['proposal', 'decline']);
    const chosen = ModelChoiceItemOutputSchema.parse(reply);
    for (const op of chosen.edit) expect(keysOf(op)).toEqual(keysOf(ModelEditOpSchema.shape));
    const read = wire.convert(chosen);
    if (!read.ok) throw new Error(read.reason);
    if ('declined' in read.value) throw new Error('the example reply declines');
    // The number chosen becomes that candidate's id, and the item is verified under that proposal's text.
    const picked = candidates[(chosen.proposal ?? 0) - 1];
    expect(read.value.proposalId).toBe(100 + (chosen.proposal ?? 0));
    expect(read.value.notes).toEqual([]);
    const { draft } = read.value;
    const result = verifyItem({ table, chartType, title, edit: draft.edit, program: draft.program, answer: draft.answer, assumption: draft.assumption, proposal: picked?.text ?? null });
    expectVerified(result, draft, label, [table]);
    expect(questionRelation(field(block, 'Factual question'), draft.question, draft.assumption)).toBe('same');
    // The first listed cannot change this answer (it edits a point the question does not read): the example takes the first that can.
    const first = verifyItem({ table, chartType, title, edit: [{ op: 'scale', row: table.rows.at(-1)?.label ?? '', factor: 2 }], program: draft.program, answer: '', proposal: candidates[0]?.text ?? null });
    expect(first.proposal_consistent).toBe(true);
    expect(first.answer_unchanged).toBe(true);

    const decline = /^Decline:\n(.*)$/m.exec(block)?.[1];
    const declined = ModelChoiceItemOutputSchema.parse(JSON.parse(decline ?? 'null'));
    expect(keysOf(declined)).toEqual(keysOf(ModelChoiceItemOutputSchema.shape));
    expect(wire.convert(declined)).toEqual({ ok: true, value: { declined: declined.decline } });
  });

  it('the group example is the exact wire shape and the verifier agrees with it over its two charts', () => {
    const block = GROUP.slice(GROUP.indexOf('# Example'));
    const charts = [...block.matchAll(/^Chart (\d) \(([^)]+)\)(?:, of the proposal's type)?: (.*)$/gm)].map((match) => {
      const chartType = CHART_TYPES.find((type) => CHART_TYPE_LABELS[type] === match[2]);
      if (!chartType) throw new Error(`unknown chart type label ${match[2]}`);
      return { table: parseTableCsv(csvAfter(block, match.index), 'example'), chartType, title: match[3] ?? '' };
    });
    expect(charts).toHaveLength(2);
    const reply = replyOf(block);
    expect(keysOf(reply)).toEqual(keysOf(ModelGroupItemOutputSchema.shape));
    const wire = ModelGroupItemOutputSchema.parse(reply);
    for (const op of wire.edit) expect(keysOf(op)).toEqual(keysOf(ModelGroupItemOutputSchema.shape.edit.element.shape));
    const read = toGroupItemDraft(wire, charts.length);
    if (!read.ok) throw new Error(read.reason);
    expect(read.value.notes).toEqual([]);
    const { draft } = read.value;
    const label = field(block, 'Label');
    const result = verifyItem({ group: charts, edit: draft.edit, program: draft.program, answer: draft.answer, assumption: draft.assumption, proposal: field(block, 'Proposal') });
    expectVerified(result, draft, label, charts.map((chart) => chart.table));
    expect(questionRelation(field(block, 'Factual question'), draft.question, draft.assumption)).toBe('same');
    expect(draft.affects_answer).toBe(!relaxedCorrect(draft.answer, label));
  });
});

const qa = (query: string, label: string) => ({ id: 1, chart_id: 1, query, label, source: 'human' as const });
const pieSource: QaWithChart = {
  qa: qa('Which response has the largest share?', 'No'),
  chart: { id: 1, imgname: 'a.png', split: 'test', chart_type: 'pie', title: 'Own a smart speaker?', table: tableFromCells(['Response', 'Share'], [['Yes', '18%'], ['No', '82%']]) },
  group: null,
};
const lineSource: QaWithChart = {
  qa: qa('In which year were sales highest?', '2020'),
  chart: { id: 2, imgname: 'b.png', split: 'test', chart_type: 'line', title: 'Sales', table: tableFromCells(['Year', 'Sales'], [['2019', '5'], ['2020', '9']]) },
  group: null,
};
const noImage = () => null;
const paired = (text: string) => ({ kind: 'paired' as const, proposal: { id: 1, text } });

/** The length of the prefix every text shares. */
function sharedPrefix(texts: string[]): number {
  const [first = ''] = texts;
  let length = first.length;
  for (const text of texts) while (!text.startsWith(first.slice(0, length))) length--;
  return length;
}

describe('Stage 2 messages put the static text first', () => {
  it.each([
    ['stage2-item', SINGLE],
    ['stage2-group-item', GROUP],
  ])('%s has no variable before its instructions end: only the chart type section closes the system message', (_, system) => {
    const firstTag = system.indexOf('{{');
    expect(system.slice(0, firstTag)).toContain('Reply with the JSON object only');
    expect(system.slice(firstTag)).toMatch(/^\{\{chart_type_label\}\} \(\{\{chart_type\}\}\)\n\n\{\{chart_type_description\}\}\n$/);
  });

  it('two requests for different charts of different types share every byte before the chart type, and the chart reaches only the user message', () => {
    const pie = itemMessages(pieSource, paired('Move ten points from the largest slice to the smallest.'), noImage);
    const line = itemMessages(lineSource, paired('Double the last period.'), noImage);
    const instructions = SINGLE.slice(0, SINGLE.indexOf('{{'));
    expect(pie.system.startsWith(instructions)).toBe(true);
    expect(line.system.startsWith(instructions)).toBe(true);
    expect(sharedPrefix([`${pie.system}\n${pie.user}`, `${line.system}\n${line.user}`])).toBe(instructions.length);
    expect(pie.system).not.toContain('smart speaker');
    expect(pie.user).toContain('Data table (CSV):\nResponse,Share\nYes,18%\nNo,82%');
  });

  it('two requests for charts of the same type share the whole system message', () => {
    const other: QaWithChart = { ...lineSource, qa: qa('What were sales in 2019?', '5'), chart: { ...lineSource.chart, id: 3, title: 'Visitors', table: tableFromCells(['Year', 'Visitors'], [['2001', '1'], ['2002', '2']]) } };
    const first = itemMessages(lineSource, paired('Double the last period.'), noImage);
    const second = itemMessages(other, paired('Halve every point.'), noImage);
    expect(second.system).toBe(first.system);
    expect(second.user).not.toBe(first.user);
  });

  it('ends the user message with the proposal, one block after the question', () => {
    const { user } = itemMessages(pieSource, paired('Move ten points from the largest slice to the smallest.'), noImage);
    expect(user).toMatch(/\n\nFactual question: Which response has the largest share\?\nLabel: No\n\nProposal: Move ten points from the largest slice to the smallest\.\n\nWrite the hypothetical item/);
  });

  it('in choose mode lists the candidates numbered in the proposal block, and keeps the system message byte for byte', () => {
    const candidates = [
      { id: 7, text: 'Move ten points from the largest slice to the smallest.' },
      { id: 3, text: 'Swap the two largest slices.' },
    ];
    const chosen = itemMessages(pieSource, { kind: 'choose', candidates }, noImage);
    expect(chosen.user).toMatch(
      /\nLabel: No\n\nProposals \(choose one by its number, or decline\):\n1\. Move ten points from the largest slice to the smallest\.\n2\. Swap the two largest slices\.\n\nChoose a proposal and write the hypothetical item for this chart, or decline, as one JSON object\.$/,
    );
    expect(chosen.user).not.toContain('Proposal: ');
    expect(chosen.system).toBe(itemMessages(pieSource, paired(candidates[0]?.text ?? ''), noImage).system);
  });
});

describe('Stage 2 over a group: images in chart order', () => {
  const member = (position: number, id: number, chartType: ChartType, series: string) => ({
    position,
    id,
    split: 'test',
    imgname: `${id}.png`,
    title: series,
    chart_type: chartType,
    table: tableFromCells(['Year', series], [['2019', '4'], ['2020', '6']]),
    table_confirmed: true,
    has_image: true,
    drawing_style: null,
  });
  const groupSource: QaWithChart = {
    qa: qa('Is Sales in the first chart higher than Costs in the third chart in 2019?', 'Yes'),
    chart: { id: 11, imgname: '11.png', split: 'test', chart_type: 'line', title: 'Sales', table: tableFromCells(['Year', 'Sales'], [['2019', '4']]) },
    group: { id: 1, name: 'g', charts: [member(1, 11, 'line', 'Sales'), member(2, 12, 'line', 'Visitors'), member(3, 13, 'vertical_bar', 'Costs')] },
  };

  it('names the charts that have no image, so the images that are attached map to the right charts', () => {
    const size = { width: 10, height: 10 };
    const image = (id: number) => ({ url: `data:image/png;base64,${Buffer.from(`png of ${id}`).toString('base64')}`, detail: 'high' as const, size, original: size });
    const messages = itemMessages(groupSource, { kind: 'paired', proposal: { id: 1, text: 'Halve the value the question asks about in one chart.', chart_type: 'vertical_bar' } }, (id) => (id === 12 ? null : image(id)));
    expect(messages.images).toEqual([image(11).url, image(13).url]);
    expect(messages.imageDetail).toBe('high');
    expect(messages.user).toContain('Chart 1 (Line): Sales');
    expect(messages.user).toContain('Chart 2 (Line), no image: Visitors');
    expect(messages.user).toContain("Chart 3 (Vertical bar), of the proposal's type: Costs");
  });
  it('in choose mode lists each candidate with the type of chart it edits, marks no chart as the one, and reads a choice over the group', () => {
    const candidates = [
      { id: 4, text: 'Halve the value the question asks about in one chart.', chart_type: 'vertical_bar' as const },
      { id: 9, text: 'Double the value the question asks about in one chart.', chart_type: 'line' as const },
    ];
    const messages = itemMessages(groupSource, { kind: 'choose', candidates }, () => null);
    expect(messages.user).toContain('Proposals (choose one by its number, or decline):\n1. (Vertical bar) Halve the value the question asks about in one chart.\n2. (Line) Double the value');
    expect(messages.user).not.toContain("of the proposal's type:");
    const wire = stage2Wire(groupSource, { kind: 'choose', candidates });
    expect(wire.schema).toBe(ModelGroupChoiceItemOutputSchema);
    const nullOp = { row: null, series: null, value: null, factor: null, delta: null, rows: null, values: null };
    const reply = {
      proposal: 2,
      decline: null,
      assumption: 'Suppose that, in the first chart, Sales in 2019 were doubled.',
      question: 'Suppose that, in the first chart, Sales in 2019 were doubled. Would Sales in the first chart be higher than Costs in the third chart in 2019?',
      rationale: 'Sales become 8.',
      edit: [{ ...nullOp, op: 'scale', row: '2019', series: 'Sales', factor: 2, chart: 1 }],
      program: "value(1, '2019', 'Sales') > value(3, '2019', 'Costs')",
      answer: 'Yes',
      answer_type: 'boolean',
      affects_answer: false,
    };
    expect(wire.convert(ModelGroupChoiceItemOutputSchema.parse(reply))).toMatchObject({ ok: true, value: { proposalId: 9, draft: { edit: [{ op: 'scale', chart: 1 }] } } });
  });
});


describe('the Stage 2 group reply', () => {
  const nullOp = { row: null, series: null, value: null, factor: null, delta: null, rows: null, values: null };
  const wire = (edit: ModelGroupItemOutput['edit']): ModelGroupItemOutput => ({
    assumption: 'Suppose that, in the second chart, the 2019 costs were tripled.',
    question: 'Suppose that, in the second chart, the 2019 costs were tripled. Would Sales in the first chart be higher than Costs in the second chart in 2019?',
    rationale: 'Costs become 12.',
    edit,
    program: 'if(value(1, "2019", "Sales") > value(2, "2019", "Costs"), "Yes", "No")',
    answer: 'No',
    answer_type: 'boolean',
    affects_answer: true,
  });

  it('reads a reply whose every op names its chart, keeping the chart on each op', () => {
    const read = toGroupItemDraft(wire([{ ...nullOp, op: 'scale', chart: 2, row: '2019', series: 'Costs', factor: 3 }]), 2);
    expect(read).toMatchObject({ ok: true, value: { draft: { edit: [{ op: 'scale', chart: 2, row: '2019', series: 'Costs', factor: 3 }] } } });
  });

  it('refuses by name an op without its chart, an edit over two charts and a chart the group lacks', () => {
    expect(toGroupItemDraft(wire([{ ...nullOp, op: 'scale', chart: null, row: '2019', series: 'Costs', factor: 3 }]), 2)).toEqual({
      ok: false,
      reason: 'edit.0.chart: op 0 does not name its chart: this item spans 2 charts, so every op says which one it edits ("chart": 1 to 2)',
    });
    const both = toGroupItemDraft(wire([{ ...nullOp, op: 'add', chart: 1, row: '2019', series: 'Sales', delta: 1 }, { ...nullOp, op: 'add', chart: 2, row: '2019', series: 'Costs', delta: 1 }]), 2);
    expect(both).toMatchObject({ ok: false, reason: expect.stringMatching(/^edit\.1\.chart: op 1 edits chart 2 but op 0 edits chart 1/) });
    const missing = toGroupItemDraft(wire([{ ...nullOp, op: 'scale', chart: 3, row: '2019', series: 'Costs', factor: 3 }]), 2);
    expect(missing).toEqual({ ok: false, reason: 'edit.0.chart: op 0 edits chart 3, but the group has charts 1 to 2' });
  });
});
