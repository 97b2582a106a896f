import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openAndMigrate, type Db } from '../../db/database';
import { PairingSchema } from '../../shared/generation/pairing';
import { GenerateReportSchema, runsApi } from '../../shared/api/runs';
import { itemsApi } from '../../shared/api/items';
import { SettingsSchema } from '../../shared/settings';
import { getRun, listRunDeclines } from '../../server/generation/run-queries';
import { activeProposals } from '../../server/pool/pool-queries';
import { editProposal, ensureSeedProposals } from '../../server/pool/pool-service';
import { buildChart, buildProposal, buildQa } from '../support/factories';
import { chosenItem, correctReply, hqaModel, isChoiceRequest, promptCandidates, schemaName, type Choice } from '../support/fake-hqa-model';
import { lastUserText, startFakeOpenAI, type FakeChatRequest, type FakeOpenAI } from '../support/fake-openai';
import { runCli } from '../support/cli';
import { buildTable } from '../support/table-fixtures';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Issue 32 point 1: a model's Stage 2 task is paired, before its request, with a proposal whose
 * operation can change its question's answer (the offline rules decide), offered a list to choose
 * from when the rules cannot program the question, or sent nowhere when nothing can change it.
 */

const SPLIT = 'pairing';
/** The one proposal of the pool that can move Italy's value: the bar the question asks about. */
const HALVE_ASKED = 'Halve the bar the question asks about.';
/** Spain is the largest bar: doubling it leaves Italy's value, and the number of bars, as they were. */
const DOUBLE_LARGEST = 'Double the largest bar.';
const DECLINE = 'No listed proposal changes which colour a bar is drawn in.';

/**
 * One bar chart and its four questions, the vertical-bar pool reduced to two proposals (the seeds
 * retired): a lookup the rules program (paired), two questions they cannot (a list), one they
 * program that no proposal changes (none).
 */
function buildCase(db: Db): { proposals: Record<string, number>; qas: Record<'lookup' | 'unprogrammed' | 'colour' | 'count', number> } {
  ensureSeedProposals(db);
  const threshold = SettingsSchema.parse({}).rouge_threshold;
  for (const seed of activeProposals(db, 'vertical_bar')) editProposal(db, seed.id, { status: 'retired' }, threshold);
  const proposals = { [DOUBLE_LARGEST]: buildProposal(db, { text: DOUBLE_LARGEST }), [HALVE_ASKED]: buildProposal(db, { text: HALVE_ASKED }) };
  const chartId = buildChart(db, { split: SPLIT, title: 'Sales', table: buildTable('Country|Sales\nItaly|40\nSpain|55\nFrance|25\nChile|30') });
  const qas = {
    lookup: buildQa(db, { chartId, query: 'What is the value of Italy?', label: '40' }),
    unprogrammed: buildQa(db, { chartId, query: 'What is the difference in value between Green bar and Orange bar?', label: '15' }),
    colour: buildQa(db, { chartId, query: 'Which colour is used for the purple bar?', label: 'Purple' }),
    count: buildQa(db, { chartId, query: 'How many bars are there?', label: '4' }),
  };
  return { proposals, qas };
}

/** The fake model: the item under the proposal it is given; from a list, the second proposal, or a decline for the colour question. */
const choose = (chat: FakeChatRequest): Choice => (/purple bar/.test(lastUserText(chat)) ? { decline: DECLINE } : { proposal: 2 });

const RUN = { engine: 'openai', stage: 'items', split: SPLIT, items: 4, order: 'id', concurrency: 1 } as const;

const pairingOf = (db: Db, qaId: number) => PairingSchema.parse(JSON.parse((db.prepare('SELECT pairing FROM run_tasks WHERE qa_id = ?').get(qaId) as { pairing: string }).pairing));

describe('a model run pairs each question before asking', () => {
  let fake: FakeOpenAI;
  let server: TestServer;
  let curator: TestClient;
  let built: ReturnType<typeof buildCase>;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ defaultHandler: hqaModel({ choose }) });
    server = await startTestServer({ demo: false, config: { openaiApiKey: 'test-key', openaiBaseUrl: fake.url } });
    await server.createUser('cora', 'curator', 'curator-pass-1');
    curator = new TestClient(server.url);
    await curator.login('cora', 'curator-pass-1');
    built = buildCase(server.server.ctx.db);
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  it('sends the paired proposal, a numbered list stored under the one chosen, ends a decline and a question nothing changes as declined, and asks nothing twice', async () => {
    const { db } = server.server.ctx;
    const before = fake.requests.length;
    const { run } = await curator.call(runsApi.create, { body: RUN });
    await server.server.executor.start(run.id);
    const detail = await curator.call(runsApi.get, { params: { id: run.id } });

    // Two items, two declines apart from failures: three requests, none for the question nothing changes, none repeated.
    expect(detail.run).toMatchObject({ status: 'done', tasks_total: 4, tasks_done: 4, tasks_failed: 0, items_created: 2, items_failed: 0, items_declined: 2, llm_calls: 3 });
    expect(detail.errors).toEqual([]);
    const requests = fake.requests.slice(before).flatMap((r) => (r.chat ? [r.chat] : []));
    expect(requests).toHaveLength(3);
    expect(requests.some((chat) => lastUserText(chat).includes('How many bars are there?'))).toBe(false);
    const items = (await curator.call(itemsApi.list, { query: { run_id: run.id } })).items;

    // The lookup: paired with the proposal that can move Italy's value, whichever the planner gave the task.
    expect(pairingOf(db, built.qas.lookup)).toEqual({ kind: 'paired', proposalId: built.proposals[HALVE_ASKED] });
    const lookup = requests.find((chat) => lastUserText(chat).includes('What is the value of Italy?'));
    if (!lookup) throw new Error('no request for the lookup');
    expect(schemaName(lookup)).toBe('hqa_item');
    expect(lastUserText(lookup)).toContain(`Proposal: ${HALVE_ASKED}`);
    expect(lastUserText(lookup)).not.toContain(DOUBLE_LARGEST);
    expect(items.find((item) => item.qa_id === built.qas.lookup)?.proposal_id).toBe(built.proposals[HALVE_ASKED]);

    // The question the rules cannot program: the candidates numbered, the task's own first; the item under the second.
    const listed = pairingOf(db, built.qas.unprogrammed);
    if (listed.kind !== 'choose') throw new Error(`expected a list, got ${JSON.stringify(listed)}`);
    expect(new Set(listed.candidateIds)).toEqual(new Set(Object.values(built.proposals)));
    const task = db.prepare('SELECT proposal_id FROM run_tasks WHERE qa_id = ?').get(built.qas.unprogrammed) as { proposal_id: number };
    expect(listed.candidateIds[0]).toBe(task.proposal_id);
    const unprogrammed = requests.find((chat) => lastUserText(chat).includes('Green bar and Orange bar'));
    if (!unprogrammed) throw new Error('no request for the unprogrammable question');
    expect(schemaName(unprogrammed)).toBe('hqa_item_choice');
    const textOf = (id: number | undefined) => Object.entries(built.proposals).find(([, each]) => each === id)?.[0];
    expect(promptCandidates(unprogrammed)).toEqual(listed.candidateIds.map(textOf));
    expect(lastUserText(unprogrammed)).not.toContain('Proposal: ');
    expect(items.find((item) => item.qa_id === built.qas.unprogrammed)?.proposal_id).toBe(listed.candidateIds[1]);

    // The model's decline and the server's: done, not failed, each with its reason and who declined.
    const declines = detail.declines;
    expect(declines).toHaveLength(2);
    const byQa = new Map(declines.map((decline) => [decline.qa_id, decline]));
    expect(byQa.get(built.qas.colour)).toMatchObject({ declined_by: 'model', reason: `the model declined: ${DECLINE}` });
    expect(byQa.get(built.qas.count)).toMatchObject({ declined_by: 'server', reason: expect.stringMatching(/^no proposal can change this answer, so no request was sent/) });
    expect(pairingOf(db, built.qas.count).kind).toBe('none');
    const statuses = db.prepare('SELECT status, error FROM run_tasks WHERE run_id = ? AND decline_reason IS NOT NULL').all(run.id);
    expect(statuses).toEqual([
      { status: 'done', error: null },
      { status: 'done', error: null },
    ]);
  });
});

describe('hqa generate --batch-out / --batch-in with pairings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hqa-pairing-'));
  const dbPath = join(dir, 'workbench.sqlite');
  let built: ReturnType<typeof buildCase>;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  beforeAll(() => {
    const db = openAndMigrate(dbPath);
    try {
      built = buildCase(db);
    } finally {
      db.close();
    }
  });

  const Line = z.object({ custom_id: z.string(), body: z.looseObject({ messages: z.array(z.looseObject({ role: z.string(), content: z.unknown() })), response_format: z.unknown() }) });
  const vllmLine = (customId: string, content: unknown) =>
    JSON.stringify({
      id: `vllm-${customId}`,
      custom_id: customId,
      response: { status_code: 200, request_id: customId, body: { id: customId, object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(content) }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } } },
      error: null,
    });

  it('writes the paired proposal and the numbered lists into the file, no line for a question nothing changes, and reads a choice and a decline back', async () => {
    const file = join(dir, 'stage2.jsonl');
    const written = await runCli(['generate', '--batch-out', file, '--stage', 'items', '--split', SPLIT, '--items', '4', '--order', 'id', '--model', 'Qwen/Qwen2-VL-7B', '--json'], { dbPath });
    expect(written.status, written.stderr).toBe(0);
    const report = z.looseObject({ run_id: z.number(), items_declined: z.number(), written: z.object({ requests: z.number() }) }).parse(JSON.parse(written.stdout));
    // The question no proposal can change is declined by the server as the file is written: three lines for four questions.
    expect(report).toMatchObject({ items_declined: 1, written: { requests: 3 } });
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((text) => Line.parse(JSON.parse(text)));
    const chats = lines.map((line) => ({ customId: line.custom_id, chat: line.body as unknown as FakeChatRequest }));
    const about = (words: string) => {
      const found = chats.find(({ chat }) => lastUserText(chat).includes(words));
      if (!found) throw new Error(`no line about ${words}`);
      return found;
    };
    expect(chats.some(({ chat }) => lastUserText(chat).includes('How many bars'))).toBe(false);
    const lookup = about('What is the value of Italy?');
    expect(schemaName(lookup.chat)).toBe('hqa_item');
    expect(lastUserText(lookup.chat)).toContain(`Proposal: ${HALVE_ASKED}`);
    const listed = about('Green bar and Orange bar');
    const colour = about('purple bar');
    for (const { chat } of [listed, colour]) {
      expect(isChoiceRequest(chat)).toBe(true);
      expect(new Set(promptCandidates(chat))).toEqual(new Set([HALVE_ASKED, DOUBLE_LARGEST]));
      // The strict schema of the list mode: the choice keys first, every key required.
      const schema = z.object({ json_schema: z.object({ schema: z.object({ required: z.array(z.string()) }) }) }).parse(chat.response_format).json_schema.schema;
      expect(schema.required.slice(0, 2)).toEqual(['proposal', 'decline']);
    }

    const out = join(dir, 'stage2-out.jsonl');
    writeFileSync(
      out,
      `${[
        vllmLine(lookup.customId, correctReply(lookup.chat)),
        vllmLine(listed.customId, chosenItem(listed.chat, { proposal: 2 })),
        vllmLine(colour.customId, chosenItem(colour.chat, { decline: DECLINE })),
      ].join('\n')}\n`,
    );
    const read = await runCli(['generate', '--run', String(report.run_id), '--batch-in', out, '--json'], { dbPath });
    expect(read.status, read.stderr).toBe(0);
    expect(GenerateReportSchema.parse(JSON.parse(read.stdout))).toMatchObject({ status: 'done', items_created: 2, items_failed: 0, items_declined: 2 });

    const db = openAndMigrate(dbPath);
    try {
      expect(getRun(db, report.run_id)).toMatchObject({ tasks_failed: 0, tasks_done: 4 });
      // Read with the candidates the file was written with: the second listed is the item's proposal.
      const second = promptCandidates(listed.chat)[1];
      const item = db.prepare('SELECT proposal_id FROM hqa_items WHERE qa_id = ?').get(built.qas.unprogrammed) as { proposal_id: number };
      expect(item.proposal_id).toBe(second === undefined ? -1 : built.proposals[second]);
      const declines = listRunDeclines(db, report.run_id);
      expect(declines.map((decline) => [decline.qa_id, decline.declined_by])).toEqual([
        [built.qas.count, 'server'],
        [built.qas.colour, 'model'],
      ]);
    } finally {
      db.close();
    }
  });
});
