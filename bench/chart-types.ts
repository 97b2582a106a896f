import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { z } from 'zod';
import { openAndMigrate, type Db } from '../db/database';
import { ChartTypeReplyWireSchema } from '../shared/domain/chart-type-reply';
import { ChartTypeSchema } from '../shared/domain/chart-types';
import type { AppContext } from '../server/app-context';
import { DomainEvents } from '../server/events/event-bus';
import { getChartImage, getChartSummary } from '../server/charts/chart-queries';
import { ChartTypeJobs } from '../server/chart-types/chart-type-jobs';
import { getChartTypeJob } from '../server/chart-types/chart-type-job-queries';
import { loadConfig } from '../server/config';
import { importSplit } from '../server/import/import-split';
import { listLlmCalls } from '../server/llm/llm-call-queries';
import { errorReply, jsonReply, startFakeOpenAI, type FakeChatRequest } from '../test/support/fake-openai';

/**
 * How right a split's chart types are, against types read off its PNGs by eye: after the import
 * (the table's shape and the questions' words), and after the vision job when given the model's
 * answers. The job is the real one (server/chart-types/chart-type-jobs.ts) against a local
 * OpenAI-compatible server that answers each request with the reply given for the image it
 * carries, so the answers pass the same schema, consistency check and storage as a model's.
 *   npm run bench:chart-types -- --split DIR --truth types.json [--requests-out DIR] [--answers replies.json]
 * types.json: { "<stem>": "<chart type>" }; replies.json: { "<stem>": { orientation, stacking, chart_type } }.
 * --requests-out writes each request body the job sends (stem.json) and the image in it (stem.png).
 */

const { values } = parseArgs({
  options: {
    split: { type: 'string', default: resolve(import.meta.dirname, '../../shared/data/chartqa-extra') },
    truth: { type: 'string' },
    answers: { type: 'string' },
    'requests-out': { type: 'string' },
  },
});

const Truth = z.record(z.string(), ChartTypeSchema);
const Answers = z.record(z.string(), ChartTypeReplyWireSchema);
const truth = values.truth ? Truth.parse(JSON.parse(readFileSync(values.truth, 'utf8'))) : null;
const answers = values.answers ? Answers.parse(JSON.parse(readFileSync(values.answers, 'utf8'))) : null;
const requestsOut = values['requests-out'];

const stemOf = (imgname: string) => imgname.replace(/\.png$/, '');

interface Row {
  stem: string;
  type: string;
  state: string;
}

function rows(db: Db): Row[] {
  const ids = (db.prepare('SELECT id FROM charts ORDER BY imgname').all() as { id: number }[]).map((row) => row.id);
  return ids.flatMap((id) => {
    const chart = getChartSummary(db, id);
    if (!chart) return [];
    const state = chart.type_confirmed ? (chart.type_evidence ?? chart.type_source) : 'unconfirmed';
    return [{ stem: stemOf(chart.imgname), type: chart.chart_type, state }];
  });
}

function report(title: string, current: Row[]): void {
  const right = truth ? current.filter((row) => truth[row.stem] === row.type).length : null;
  const confirmed = current.filter((row) => row.state !== 'unconfirmed');
  const confirmedRight = truth ? confirmed.filter((row) => truth[row.stem] === row.type).length : null;
  console.log(`\n${title}`);
  for (const row of current) {
    const expected = truth?.[row.stem];
    console.log(`  ${row.stem.padEnd(20)} ${row.type.padEnd(15)} ${row.state.padEnd(12)} ${expected === undefined ? '' : `by eye ${expected.padEnd(15)} ${expected === row.type ? 'right' : 'WRONG'}`}`);
  }
  const rightText = right === null ? '' : `, ${right} of ${current.length} right (${confirmedRight} of the ${confirmed.length} confirmed)`;
  console.log(`  ${current.length} charts, ${confirmed.length} confirmed, ${current.length - confirmed.length} unconfirmed${rightText}`);
}

const dir = mkdtempSync(join(tmpdir(), 'hqa-bench-types-'));
const fake = await startFakeOpenAI();
try {
  const db = openAndMigrate(join(dir, 'types.sqlite'));
  importSplit(db, values.split);
  report('After the import (table shape, then the questions’ words):', rows(db));

  if (answers || requestsOut) {
    const stems = new Map((db.prepare('SELECT id, imgname FROM charts').all() as { id: number; imgname: string }[]).map((row) => [getChartImage(db, row.id)?.png.toString('base64') ?? '', stemOf(row.imgname)]));
    const imageOf = (chat: FakeChatRequest) => {
      const user = chat.messages[1]?.content;
      const part = Array.isArray(user) ? (user.find((p) => p.type === 'image_url') as { image_url?: { url: string } } | undefined) : undefined;
      return (part?.image_url?.url ?? '').replace(/^data:image\/\w+;base64,/, '');
    };
    if (requestsOut) mkdirSync(requestsOut, { recursive: true });
    fake.setDefault((chat, recorded) => {
      const image = imageOf(chat);
      const stem = stems.get(image) ?? 'unknown';
      if (requestsOut) {
        writeFileSync(join(requestsOut, `${stem}.json`), recorded.rawBody);
        writeFileSync(join(requestsOut, `${stem}.png`), Buffer.from(image, 'base64'));
      }
      const answer = answers?.[stem];
      // Without an answer the chart is not read: it stays unconfirmed, as after a failed call.
      return answer ? jsonReply(answer) : errorReply(400, `no answer given for ${stem}`);
    });
    const ctx: AppContext = {
      db,
      config: { ...loadConfig({}), openaiApiKey: 'bench', openaiBaseUrl: fake.url },
      logger: pino({ level: 'silent' }),
      events: new DomainEvents(db, pino({ level: 'silent' })), publish: () => undefined,
      publishTo: () => undefined,
      disconnectSockets: () => undefined,
    };
    const jobs = new ChartTypeJobs(ctx);
    const { id } = jobs.launch({}, null);
    await jobs.start(id);
    const job = getChartTypeJob(db, id);
    const calls = listLlmCalls(db).filter((call) => call.purpose === 'chart_type');
    const tokens = calls.reduce((n, c) => n + c.prompt_tokens + c.completion_tokens, 0);
    const cost = job?.priced ? `$${(job.cost).toFixed(4)} at the default price table` : 'cost unknown (model not in the price table)';
    report(`After the vision job (${job?.model ?? ''}: ${job?.tasks_done ?? 0} answered, ${job?.tasks_failed ?? 0} failed, ${calls.length} requests, ${tokens} tokens as the local server counts them, ${cost}):`, rows(db));
    if (requestsOut) console.log(`\nrequest bodies and their images: ${requestsOut}`);
  }
} finally {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
}
