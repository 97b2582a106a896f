import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ItemDetailSchema, type ItemDetail } from '@shared/api/items';
import { ReviewTaskSchema } from '@shared/api/review';
import { buildTable } from '../../../test/support/table-fixtures';
import { ItemContext } from '../features/review/item-context';
import { ItemBody } from '../features/items/item-page';
import { ItemListTable } from './item-list-table';

const DIFFERENT = 'Asks a different question than the factual one — not the benchmark’s task (left out of decline and bias rates)';
const OFF_PROPOSAL = 'the proposal names the smallest row (&quot;Continental (Germany)&quot;), but the edit acts on &quot;Michelin (France)&quot;';

type Flags = Partial<Pick<ItemDetail, 'question_relation' | 'answer_unchanged' | 'is_control' | 'proposal_consistent' | 'table_state'>>;

// Parsed, not typed: fields other work adds to these schemas need no edit here.
function buildItem(flags: Flags): ItemDetail {
  return ItemDetailSchema.parse({
    id: 7,
    qa_id: 3,
    chart_id: 2,
    imgname: 'two_col_158.png',
    chart_type: 'vertical_bar',
    proposal_id: 4,
    run_id: null,
    origin: 'offline',
    model: 'offline-rules',
    question: 'Suppose Michelin’s revenue rose by 0.1. What is the name of the company have highest tire-related revenue ?',
    answer: 'Bridgestone (Japan)',
    answer_type: 'text',
    affects_answer: false,
    verifier_match: true,
    bias_flags: [],
    question_relation: 'same',
    answer_unchanged: false,
    is_control: false,
    proposal_consistent: true,
    requeue_reason: null,
    status: 'pending',
    created_at: '2026-01-02T03:04:05.000Z',
    table_state: 'confirmed',
    assumption: 'Suppose Michelin’s revenue rose by 0.1.',
    rationale: 'hand-built',
    edit: [{ op: 'add', row: 'Michelin (France)', delta: 0.1 }],
    program: 'argmax(series())',
    verifier: {
      recomputed_answer: 'Bridgestone (Japan)',
      original_answer: 'Bridgestone (Japan)',
      answer_type: 'text',
      match: true,
      answer_unchanged: flags.answer_unchanged ?? false,
      proposal_consistent: flags.proposal_consistent ?? true,
      lint:
        flags.proposal_consistent === false
          ? [{ code: 'proposal_inconsistent', severity: 'warning', message: OFF_PROPOSAL.replaceAll('&quot;', '"') }]
          : [],
      error: null,
    },
    final_answer: null,
    factual_query: 'What is the name of the company have highest tire-related revenue ?',
    factual_label: 'Bridgestone (Japan)',
    proposal_text: 'Raise the smallest bar until it becomes the largest.',
    unverifiable_colours: [],
    ...flags,
  });
}

function reviewScreen(item: ItemDetail): string {
  const task = ReviewTaskSchema.parse({
    item,
    chart: {
      id: 2,
      imgname: item.imgname,
      title: null,
      chart_type: 'vertical_bar',
      data_table: buildTable('Company | Revenue\nBridgestone (Japan) | 27.23\nMichelin (France) | 26.55\nContinental (Germany) | 12.9'),
      has_image: true,
      drawing_style: null,
    },
    lease_expires_at: '2026-01-02T03:09:05.000Z',
    lease_token: 'lease-1',
  });
  return renderToStaticMarkup(createElement(ItemContext, { task, outcome: { kind: 'none' } }));
}

const itemPage = (item: ItemDetail) => renderToStaticMarkup(createElement(MemoryRouter, null, createElement(ItemBody, { item })));
const bothScreens = (flags: Flags) => [reviewScreen(buildItem(flags)), itemPage(buildItem(flags))];
const itemList = (flags: Flags) =>
  renderToStaticMarkup(createElement(MemoryRouter, null, createElement(ItemListTable, { items: [buildItem(flags)], keyboard: false, onOpen: () => undefined })));

describe('validity flags on the review screen and the item page', () => {
  it('flag an item that asks a different question, prominently', () => {
    for (const html of bothScreens({ question_relation: 'different' })) {
      expect(html).toContain('data-testid="validity-different"');
      expect(html).toContain(DIFFERENT);
    }
    for (const html of bothScreens({ question_relation: 'same' })) expect(html).not.toContain('validity-different');
  });

  it('say when the relation is not classified yet', () => {
    for (const html of bothScreens({ question_relation: null })) expect(html).toContain('question relation not classified yet');
    for (const html of bothScreens({ question_relation: 'same' })) expect(html).not.toContain('not classified yet');
  });

  it('warn that an assumption leaves the answer unchanged, with the answer before and after', () => {
    for (const html of bothScreens({ answer_unchanged: true })) {
      expect(html).toContain('data-testid="validity-unchanged"');
      expect(html).toContain('The assumption does not change the answer (Bridgestone (Japan) before and after)');
    }
    for (const html of bothScreens({ answer_unchanged: false })) expect(html).not.toContain('does not change the answer');
  });

  it('label a deliberate control as such, not as a warning', () => {
    for (const html of bothScreens({ answer_unchanged: true, is_control: true })) {
      expect(html).toContain('data-testid="validity-control"');
      expect(html).toContain('Deliberate control: the assumption does not change the answer (Bridgestone (Japan) before and after)');
      expect(html).not.toContain('validity-unchanged');
    }
  });

  it('say an item does not do what its proposal says, with the finding’s message', () => {
    for (const html of bothScreens({ proposal_consistent: false })) {
      expect(html).toContain(`Does not do what its proposal says: ${OFF_PROPOSAL}`);
    }
    for (const html of bothScreens({ proposal_consistent: null })) expect(html).not.toContain('Does not do what its proposal says');
  });

  it('mark an item on an unconfirmed table, and on review show the original image to judge from', () => {
    const [review, page] = bothScreens({ table_state: 'unconfirmed' });
    for (const html of [review, page]) expect(html).toContain('data-testid="validity-table-unconfirmed"><strong>unverified: table not confirmed</strong>');
    expect(review).toContain('data-testid="judge-from-image"');
    expect(review).toMatch(/<img src="\/api\/charts\/2\/image" alt="Original chart image: two_col_158.png" data-testid="judge-from-image-img"/);
    expect(page).not.toContain('judge-from-image');
    for (const html of bothScreens({ table_state: 'confirmed' })) {
      expect(html).not.toContain('table not confirmed');
      expect(html).not.toContain('judge-from-image');
    }
  });

  it('show the program’s answer before the edit beside the recomputed one', () => {
    for (const html of bothScreens({})) {
      expect(html).toContain('data-testid="original-answer"');
      expect(html).toMatch(/before the edit: <span class="mono">Bridgestone \(Japan\)<\/span>/);
    }
  });
});

describe('validity tags in the items list', () => {
  const tags = (html: string) => [...html.matchAll(/data-flag="([a-z]+)"/g)].map((match) => match[1]);

  it('tag each flag compactly', () => {
    expect(tags(itemList({ question_relation: 'different', answer_unchanged: true, proposal_consistent: false }))).toEqual(['different', 'unchanged', 'inconsistent']);
    expect(tags(itemList({ question_relation: null, answer_unchanged: true, is_control: true }))).toEqual(['unclassified', 'control']);
  });

  it('tag an item on an unconfirmed table', () => {
    const html = itemList({ table_state: 'unconfirmed' });
    expect(html).toContain('data-flag="table_unconfirmed" data-testid="table-unconfirmed-tag">unverified: table not confirmed</span>');
    expect(itemList({ table_state: 'confirmed' })).not.toContain('table_unconfirmed');
  });

  it('tag nothing on a valid item', () => {
    const html = itemList({});
    expect(tags(html)).toEqual([]);
    expect(html).not.toContain('validity-tags');
  });
});
