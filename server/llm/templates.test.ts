import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { l as rougeL } from 'js-rouge';
import Mustache from 'mustache';
import { describe, expect, it } from 'vitest';
import { CHART_TYPES, CHART_TYPE_LABELS } from '../../shared/domain/chart-types';
import { ProposalBatchSchema } from '../../shared/generation/item-draft';
import { buildTable } from '../../test/support/table-fixtures';
import { parseTableCsv } from '../import/csv-table';
import {
  buildTemplate,
  chartTypeDescription,
  loadTemplate,
  parseSeedProposals,
  PromptError,
  seedProposals,
  tableToPromptCsv,
  TEMPLATE_NAMES,
  USER_MARKER,
  type Stage1Vars,
  type JudgeVars,
  type Stage2Vars,
  type TemplateName,
} from './templates';

/** Self-Instruct's near-duplicate threshold, which the pool's filter also uses. */
const ROUGE_DUPLICATE = 0.7;

const promptPath = (relative: string) => fileURLToPath(new URL(`../../prompts/${relative}`, import.meta.url));
const readPrompt = (relative: string) => readFileSync(promptPath(relative), 'utf8');

const stage1Vars: Stage1Vars = {
  chart_type: 'pie',
  chart_type_label: 'Pie',
  chart_type_description: 'A pie chart: slices that sum to 100.',
  examples: ['Merge the two smallest slices into one slice whose share is their sum.', 'Remove the largest slice & re-normalise <the> rest.'],
  count: 5,
};

const stage2Vars: Stage2Vars = {
  chart_type: 'grouped_bar',
  chart_type_label: 'Grouped bar',
  chart_type_description: 'Groups of bars, one per series.',
  proposal: 'Halve one series in every group.',
  question: 'Which "brand" leads in 2019 & 2020?',
  label: 'Brand <A>',
  title: null,
  table_csv: 'Year,Brand <A>,Brand B\n2019,10,12\n2020,14,9',
  series: ['Brand <A>', 'Brand B'],
  rows: ['2019', '2020'],
};

const judgeVars: JudgeVars = { question: 'What is the label of the "x" axis?', ground_truth: 'Time & <s>', response: 'It reads "time & <s>".' };

const sampleVars: { [N in TemplateName]: Parameters<ReturnType<typeof loadTemplate<N>>['render']>[0] } = {
  'stage1-proposals': stage1Vars,
  'judge-title': judgeVars,
  'judge-chart-text': judgeVars,
  'judge-quantity': judgeVars,
  'judge-yes-no': judgeVars,
  'judge-ordered-list': judgeVars,
  'judge-trend': judgeVars,
  'judge-layout': judgeVars,
  'judge-text-in-chart': judgeVars,
  'judge-text-in-general': judgeVars,
  'judge-number': judgeVars,
  'stage2-item': stage2Vars,
  'stage2-group-item': {
    chart_type: 'vertical_bar',
    chart_type_label: 'Vertical bar',
    chart_type_description: 'Bars show one value per category.',
    proposal: 'Halve the value the question asks about in one chart.',
    question: 'Is Sales in the first chart higher than Costs in the second chart in 2019?',
    label: 'Yes',
    charts: [
      { position: 1, chart_type: 'line', chart_type_label: 'Line', title: 'Sales', table_csv: 'Year,Sales\n2019,10', series: ['Sales'], rows: ['2019'], editable: false, image: true },
      { position: 2, chart_type: 'vertical_bar', chart_type_label: 'Vertical bar', title: null, table_csv: 'Year,Costs\n2019,4', series: ['Costs'], rows: ['2019'], editable: true, image: false },
    ],
  },
  'repair-json': { error: 'answer: expected string, received number', schema_name: 'HqaItemDraft' },
  'extract-table': { type_request: 'Its type is not known: say which it is in `chart_type`.' },
  'chart-type': {},
  reflection: {
    chart_type: 'pie',
    chart_type_label: 'Pie',
    chart_type_description: 'Slices are shares of a whole that sum to 100.',
    proposal: 'Double the smallest slice.',
    decided: 2,
    accepted: 0,
    feedback: [
      { question: 'Suppose the smallest slice doubled. Which slice is largest?', decision: 'reject', failed: 'layout', notes: 'sum is 112', comment: 'Take the points from another slice <b>', correction: '' },
    ],
  },
};

describe('templates', () => {
  it.each(TEMPLATE_NAMES)('%s renders with sample variables, leaving no mustache tags', (name) => {
    const { system, user } = loadTemplate(name).render(sampleVars[name] as never);
    for (const text of [system, user]) expect(text).not.toContain('{{');
    expect(user.length).toBeGreaterThan(0);
    // JSON mode refuses a conversation that never says JSON.
    expect(`${system}\n${user}`).toContain('JSON');
  });

  it('renders values verbatim, without HTML escaping', () => {
    const { user } = loadTemplate('stage2-item').render(stage2Vars);
    expect(user).toContain('Which "brand" leads in 2019 & 2020?');
    expect(user).toContain('Label: Brand <A>');
    expect(user).toContain('Year,Brand <A>,Brand B\n2019,10,12\n2020,14,9');
    expect(user).toContain('Series names: ["Brand <A>","Brand B"]');
    expect(user).not.toContain('&quot;');
  });

  it('keeps the system message static but for the chart type: the chart, question and proposal only reach the user message', () => {
    const first = loadTemplate('stage2-item').render(stage2Vars);
    const second = loadTemplate('stage2-item').render({ ...stage2Vars, proposal: 'Something else entirely.', question: 'Which is largest?', table_csv: 'Year,B\n2019,1', rows: ['2019'], series: ['B'] });
    expect(second.system).toBe(first.system);
    const s1 = loadTemplate('stage1-proposals');
    expect(s1.render({ ...stage1Vars, count: 1 }).system).toBe(s1.render(stage1Vars).system);
  });

  it('renders a null or blank title as "untitled", and a title as given', () => {
    const template = loadTemplate('stage2-item');
    expect(template.render(stage2Vars).user).toContain('Chart title: untitled');
    expect(template.render({ ...stage2Vars, title: '  ' }).user).toContain('Chart title: untitled');
    expect(template.render({ ...stage2Vars, title: 'Sales by brand' }).user).toContain('Chart title: Sales by brand');
  });

  it('lists the examples and the count in the Stage 1 user message', () => {
    const { user } = loadTemplate('stage1-proposals').render(stage1Vars);
    expect(user).toContain('- Merge the two smallest slices into one slice whose share is their sum.\n- Remove the largest slice & re-normalise <the> rest.');
    expect(user).toContain('Number of new proposals to write: 5');
    expect(user).not.toContain('(none yet)');
    expect(loadTemplate('stage1-proposals').render({ ...stage1Vars, examples: [] }).user).toContain('(none yet)');
  });

  it('gives the reflection prompt every review of the proposal, verbatim', () => {
    const { system, user } = loadTemplate('reflection').render(sampleVars.reflection);
    expect(system).toContain('revised_proposal');
    expect(user).toContain('Double the smallest slice.');
    expect(user).toContain('Failed: layout. Notes: sum is 112 Feedback: Take the points from another slice <b>');
    expect(user).not.toContain('Correction:');
  });

  it('makes repair-json a follow-up user message carrying the error and the schema name', () => {
    const { system, user } = loadTemplate('repair-json').render(sampleVars['repair-json']);
    expect(system).toBe('');
    expect(user).toContain('answer: expected string, received number');
    expect(user).toContain('HqaItemDraft');
  });

  it('uses only variables that its schema or view provides', () => {
    const judge = Object.keys(judgeVars);
    const provided: Record<TemplateName, string[]> = {
      'stage1-proposals': [...Object.keys(stage1Vars), 'group'],
      'judge-title': judge,
      'judge-chart-text': judge,
      'judge-quantity': judge,
      'judge-yes-no': judge,
      'judge-ordered-list': judge,
      'judge-trend': judge,
      'judge-layout': judge,
      'judge-text-in-chart': judge,
      'judge-text-in-general': judge,
      'judge-number': judge,
      // `choose` and the numbered `candidates` (choose mode) come from the view.
      'stage2-item': [...Object.keys(stage2Vars), 'rows_json', 'series_json', 'choose', 'candidates', 'number', 'text'],
      'stage2-group-item': [...Object.keys(sampleVars['stage2-group-item']), 'position', 'editable', 'image', 'rows_json', 'series_json', 'table_csv', 'title', 'choose', 'candidates', 'number', 'text'],
      'repair-json': ['error', 'schema_name'],
      'extract-table': ['type_request'],
      'chart-type': [],
      reflection: [...Object.keys(sampleVars.reflection), 'question', 'decision', 'failed', 'notes', 'comment', 'correction'],
    };
    for (const name of TEMPLATE_NAMES) {
      const used = tagNames(Mustache.parse(readPrompt(`${name}.md`)));
      expect(used.filter((tag) => !provided[name].includes(tag)), name).toEqual([]);
    }
  });

  it.each([
    ['stage2-item', 'proposal'],
    ['stage2-item', 'table_csv'],
    ['stage1-proposals', 'examples'],
    ['repair-json', 'schema_name'],
  ] as const)('%s refuses to render without "%s", naming it', (name, key) => {
    const vars: Record<string, unknown> = { ...sampleVars[name] };
    delete vars[key];
    expect(() => loadTemplate(name).render(vars as never)).toThrow(new RegExp(`${name}: missing variable "${key}"`));
  });

  it('renders Stage 2 with either a proposal or candidates to choose from, never both', () => {
    const { proposal: _proposal, ...chart } = stage2Vars;
    const { user } = loadTemplate('stage2-item').render({ ...chart, candidates: [{ number: 1, text: 'Double the first bar.' }, { number: 2, text: 'Halve the last bar.' }] });
    expect(user).toContain('Proposals (choose one by its number, or decline):\n1. Double the first bar.\n2. Halve the last bar.\n\nChoose a proposal');
    expect(() => loadTemplate('stage2-item').render({ ...stage2Vars, candidates: [{ number: 1, text: 'Double the first bar.' }] })).toThrow(/variable "proposal": give either a proposal or candidates/);
  });

  it('names a variable of the wrong shape', () => {
    expect(() => loadTemplate('stage1-proposals').render({ ...stage1Vars, count: 0 })).toThrow(/variable "count"/);
    expect(() => loadTemplate('stage2-item').render({ ...stage2Vars, chart_type: 'donut' as never })).toThrow(/variable "chart_type"/);
    expect(() => loadTemplate('stage2-item').render({ ...stage2Vars, title: undefined as never })).toThrow(/missing variable "title"/);
  });

  it('chart-type defines every type of the vocabulary, the enum its reply is held to', () => {
    const { system } = loadTemplate('chart-type').render({});
    for (const type of CHART_TYPES) expect(system, type).toContain(`- \`${type}\`:`);
  });

  it('hashes the file text with sha256, and the hash follows the text', () => {
    for (const name of TEMPLATE_NAMES) {
      const text = readPrompt(`${name}.md`);
      const template = loadTemplate(name);
      expect(template.hash).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
      expect(loadTemplate(name).hash).toBe(template.hash);
      expect(buildTemplate(name, text).hash).toBe(template.hash);
      expect(buildTemplate(name, `${text} `).hash).not.toBe(template.hash);
    }
  });

  it('refuses a template without exactly one user marker, naming the file', () => {
    expect(() => buildTemplate('repair-json', 'only a system message')).toThrow(/prompts\/repair-json\.md: .*found 0/);
    expect(() => buildTemplate('repair-json', `a\n${USER_MARKER}\nb\n${USER_MARKER}\nc`)).toThrow(/found 2/);
    expect(() => buildTemplate('repair-json', `a\n${USER_MARKER}\n{{#error}}unclosed`)).toThrow(PromptError);
  });

  it('renders every chart type with its label, closing the system message', () => {
    for (const type of CHART_TYPES) {
      const { system } = loadTemplate('stage2-item').render({ ...stage2Vars, chart_type: type, chart_type_label: CHART_TYPE_LABELS[type] });
      expect(system).toMatch(new RegExp(`# This chart type: ${CHART_TYPE_LABELS[type]} \\(${type}\\)\n\nGroups of bars, one per series\\.$`));
    }
  });

  it('refuses an unknown template name', () => {
    expect(() => loadTemplate('stage3' as never)).toThrow(/unknown template "stage3"/);
  });
});

describe('chart-type descriptions', () => {
  it.each(CHART_TYPES)('%s has a description of 10–25 lines', (type) => {
    const text = chartTypeDescription(type);
    const lines = text.split('\n').length;
    expect(lines).toBeGreaterThanOrEqual(10);
    expect(lines).toBeLessThanOrEqual(25);
    expect(text).not.toContain('{{');
    expect(chartTypeDescription(type)).toBe(text);
  });

  it('refuses an unknown chart type', () => {
    expect(() => chartTypeDescription('donut' as never)).toThrow(/unknown chart type "donut"/);
  });
});

describe('seed proposals', () => {
  const seeds = seedProposals();

  it.each(CHART_TYPES)('%s has 4 valid, mutually distinct seeds (ROUGE-L F < 0.7)', (type) => {
    const list = seeds[type];
    expect(list).toHaveLength(4);
    expect(ProposalBatchSchema.parse({ proposals: list }).proposals).toEqual(list);
    for (const [i, a] of list.entries()) {
      for (const b of list.slice(i + 1)) {
        expect(rougeL(a, b, { beta: 1 }), `${a}\n${b}`).toBeLessThan(ROUGE_DUPLICATE);
        expect(rougeL(b, a, { beta: 1 }), `${b}\n${a}`).toBeLessThan(ROUGE_DUPLICATE);
      }
    }
  });

  it('keeps seeds general: no digits, so no specific numbers or years', () => {
    for (const type of CHART_TYPES) for (const seed of seeds[type]) expect(seed, `${type}: ${seed}`).not.toMatch(/\d/);
  });

  it('hands out copies, so a caller cannot change the cached seeds', () => {
    seedProposals().pie.push('changed');
    expect(seedProposals().pie).toHaveLength(4);
  });

  it('names the file and key of a bad seed file', () => {
    const valid = JSON.parse(readPrompt('seeds.json')) as Record<string, string[]>;
    const bad = (patch: Record<string, unknown>) => () => parseSeedProposals(JSON.stringify({ ...valid, ...patch }), 'prompts/seeds.json');
    expect(bad({ pie: valid.pie!.slice(0, 3) })).toThrow(/prompts\/seeds\.json: key "pie" must be an array of exactly 4/);
    expect(bad({ donut: valid.pie })).toThrow(/prompts\/seeds\.json: key "donut" is not a chart type/);
    expect(bad({ line: [...valid.line!.slice(0, 3), 'short'] })).toThrow(/"line"\[3\]/);
    expect(bad({ area: [...valid.area!.slice(0, 3), valid.area![0]] })).toThrow(/key "area" repeats/);
    const { scatter: _scatter, ...withoutScatter } = valid;
    expect(() => parseSeedProposals(JSON.stringify(withoutScatter), 'prompts/seeds.json')).toThrow(/key "scatter" is missing/);
    expect(() => parseSeedProposals('{', 'prompts/seeds.json')).toThrow(/prompts\/seeds\.json: not valid JSON/);
  });
});

describe('tableToPromptCsv', () => {
  it('writes the header and raw cells, missing cells as nan, quoting commas and quotes', () => {
    const table = buildTable(`
      Response                | Share  | Revenue
      Yes                     | 16%    | $1,200
      No, but I plan to       | -      | 35
      Say "maybe"             | nan    |
    `);
    expect(tableToPromptCsv(table)).toBe(
      ['Response,Share,Revenue', 'Yes,16%,"$1,200"', '"No, but I plan to",nan,35', '"Say ""maybe""",nan,nan'].join('\n'),
    );
  });

  it('writes the % of a series whose unit stands apart (an extracted table) into its cells, as the chart prints them', () => {
    const table = { ...buildTable(`
      Party | 2015 | Seats
      Venstre | 19.5 | 34
      Alternativet | nan | 5
    `), units: ['%', null] };
    expect(tableToPromptCsv(table)).toBe(['Party,2015,Seats', 'Venstre,19.5%,34', 'Alternativet,nan,5'].join('\n'));
  });

  it('round-trips through the importer', () => {
    const table = buildTable(`
      Year  | Online | Offline
      2017  | 10     | 90
      2019* | nan    | 85
    `);
    expect(parseTableCsv(tableToPromptCsv(table), 'round-trip')).toEqual(table);
  });
});

/** Every variable or section name a parsed mustache template refers to. */
function tagNames(tokens: readonly unknown[]): string[] {
  const names = new Set<string>();
  const walk = (list: readonly unknown[]) => {
    for (const token of list as unknown[][]) {
      const [kind, value, , , children] = token as [string, string, number, number, unknown[] | undefined];
      if (['name', '&', '{', '#', '^'].includes(kind) && value !== '.') names.add(value);
      if (Array.isArray(children)) walk(children);
    }
  };
  walk(tokens);
  return [...names];
}
