import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openAndMigrate } from '../db/database';
import { CHART_TYPES } from '../shared/domain/chart-types';
import { getQaWithChart, type QaWithChart } from '../server/charts/chart-queries';
import { addDemoExtras } from '../server/demo/demo-extras-import';
import { groupStage2Wire, itemMessages, STAGE_WIRES, stage2Wire, type Stage2Offer } from '../server/generation/stage-prompts';
import { importSplit } from '../server/import/import-split';
import { structuredBody } from '../server/llm/llm-client';
import { seedProposals } from '../server/llm/templates';
import { groupSeedTexts } from '../server/pool/group-seeds';

/**
 * What one Stage 2 request costs in prompt text, and how much of it an endpoint's prompt cache
 * can serve: real ChartQA charts (a sample split imported into a temporary database) and the
 * demo's chart group, each question with a seed proposal of its chart type, rendered by
 * `itemMessages` exactly as a run sends them (paired; and in choose mode, the type's seeds
 * listed as the candidates). Prints characters of the system and user
 * messages, an estimate of tokens (characters / 4; images and the JSON schema not counted), and
 * the prefix every request of a kind shares byte for byte (system, then user text: the order
 * the request carries them when no image goes first).
 *   npm run bench:prompt-size -- [--split DIR] [--per-type N]
 */

const { values } = parseArgs({
  options: {
    split: { type: 'string', default: resolve(import.meta.dirname, '../../shared/data/chartqa-sample') },
    'per-type': { type: 'string', default: '1' },
  },
});

/** The usual rule of thumb for English text under OpenAI's tokenizers. */
const CHARS_PER_TOKEN = 4;

interface Measured {
  label: string;
  system: number;
  user: number;
  /** System and user text as the request carries them, for the shared prefix. */
  text: string;
}

const dir = mkdtempSync(join(tmpdir(), 'hqa-prompt-size-'));
try {
  const db = openAndMigrate(join(dir, 'prompt-size.sqlite'));
  const { split } = importSplit(db, values.split);
  addDemoExtras(db, split);
  const seeds = seedProposals();
  const perType = Number(values['per-type']);
  const noImage = () => null;
  const measure = (label: string, source: QaWithChart, offer: Stage2Offer): Measured => {
    const { system, user } = itemMessages(source, offer, noImage);
    return { label, system: system.length, user: user.length, text: `${system}\n\n${user}` };
  };

  const qaIds = db.prepare('SELECT q.id, c.chart_type, q.group_id FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE c.data_table IS NOT NULL ORDER BY q.id').all() as {
    id: number;
    chart_type: string;
    group_id: number | null;
  }[];
  const single: Measured[] = [];
  const choose: Measured[] = [];
  let chooseSource: QaWithChart | null = null;
  for (const type of CHART_TYPES) {
    for (const { id } of qaIds.filter((q) => q.group_id === null && q.chart_type === type).slice(0, perType)) {
      const source = getQaWithChart(db, id);
      if (!source) continue;
      single.push(measure(`${type} qa ${id}`, source, { kind: 'paired', proposal: { id: 1, text: seeds[type][0] ?? '' } }));
      choose.push(measure(`${type} qa ${id}`, source, { kind: 'choose', candidates: seeds[type].map((text, i) => ({ id: i + 1, text })) }));
      chooseSource ??= source;
    }
  }
  const group: Measured[] = [];
  for (const { id } of qaIds.filter((q) => q.group_id !== null)) {
    const source = getQaWithChart(db, id);
    if (source) group.push(measure(`group qa ${id}`, source, { kind: 'paired', proposal: { id: 1, text: groupSeedTexts()[0] ?? '', chart_type: source.chart.chart_type } }));
  }
  report('Stage 2, one chart', single, schemaChars(STAGE_WIRES.stage2));
  if (chooseSource) report('Stage 2, one chart, choose mode (the seeds listed)', choose, schemaChars(stage2Wire(chooseSource, { kind: 'choose', candidates: [{ id: 1, text: 'x' }] })));
  report('Stage 2, chart group', group, schemaChars(groupStage2Wire(2)));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** The strict JSON schema a request carries beside its messages (`response_format`), which the endpoint counts as prompt too. */
function schemaChars(wire: { schema: Parameters<typeof structuredBody>[0]['wireSchema']; name: string }): number {
  const body = structuredBody({ messages: { system: '', user: '' }, wireSchema: wire.schema, schemaName: wire.name, temperature: 0 }, 'json_schema');
  const format = body.response_format;
  return format?.type === 'json_schema' ? JSON.stringify(format.json_schema.schema).length : 0;
}

function report(title: string, rows: Measured[], schema: number): void {
  if (rows.length === 0) return;
  const shared = commonPrefix(rows.map((r) => r.text));
  const tokens = (chars: number) => Math.round(chars / CHARS_PER_TOKEN);
  console.log(`\n${title}: ${rows.length} requests`);
  console.log('request'.padEnd(24), 'system'.padStart(7), 'user'.padStart(7), 'total'.padStart(7), '~tokens'.padStart(8), 'dynamic'.padStart(8));
  for (const row of rows) {
    const total = row.system + row.user;
    console.log(row.label.padEnd(24), String(row.system).padStart(7), String(row.user).padStart(7), String(total).padStart(7), String(tokens(total)).padStart(8), String(row.text.length - shared).padStart(8));
  }
  const mean = rows.reduce((sum, r) => sum + r.system + r.user, 0) / rows.length;
  console.log(`mean ${Math.round(mean)} characters (~${tokens(mean)} tokens); every request starts with the same ${shared} characters (~${tokens(shared)} tokens)`);
  console.log(`the structured-output schema adds ${schema} characters (~${tokens(schema)} tokens) to each request`);
}

function commonPrefix(texts: string[]): number {
  const [first = ''] = texts;
  let length = first.length;
  for (const text of texts.slice(1)) {
    let i = 0;
    while (i < length && i < text.length && text[i] === first[i]) i++;
    length = i;
  }
  return length;
}
