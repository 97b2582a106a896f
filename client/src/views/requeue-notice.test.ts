import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ItemDetailSchema, type ItemDetail } from '@shared/api/items';
import { ReviewTaskSchema } from '@shared/api/review';
import { buildTable } from '../../../test/support/table-fixtures';
import { ItemContext } from '../features/review/item-context';
import { ItemBody } from '../features/items/item-page';

const REASON_TEXT = 'Sent back to review: the chart’s data table changed on re-import';

// Parsed, not typed: fields other work adds to these schemas need no edit here.
function buildItem(requeueReason: ItemDetail['requeue_reason']): ItemDetail {
  return ItemDetailSchema.parse({
    id: 7,
    qa_id: 3,
    chart_id: 2,
    imgname: 'two_col_158.png',
    chart_type: 'vertical_bar',
    proposal_id: null,
    run_id: null,
    origin: 'human',
    model: null,
    question: 'Suppose Michelin’s revenue rose by 1. Which company would have the highest revenue?',
    answer: 'Michelin (France)',
    answer_type: 'text',
    affects_answer: true,
    verifier_match: false,
    bias_flags: [],
    question_relation: 'same',
    answer_unchanged: false,
    is_control: false,
    proposal_consistent: null,
    requeue_reason: requeueReason,
    table_state: 'confirmed',
    status: 'pending',
    created_at: '2026-01-02T03:04:05.000Z',
    assumption: 'Suppose Michelin’s revenue rose by 1.',
    rationale: 'hand-built',
    edit: null,
    program: 'argmax(series())',
    verifier: { recomputed_answer: 'Goodyear (U.S.)', answer_type: 'text', match: false, lint: [], error: null },
    final_answer: null,
    factual_query: 'Which company has the highest revenue?',
    factual_label: 'Bridgestone (Japan)',
    proposal_text: null,
    unverifiable_colours: [],
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
      data_table: buildTable('Company | Revenue\nMichelin (France) | 26.55\nGoodyear (U.S.) | 30'),
      has_image: true,
      drawing_style: null,
    },
    lease_expires_at: '2026-01-02T03:09:05.000Z',
    lease_token: 'lease-1',
  });
  return renderToStaticMarkup(createElement(ItemContext, { task, outcome: { kind: 'none' } }));
}

const itemPage = (item: ItemDetail) => renderToStaticMarkup(createElement(MemoryRouter, null, createElement(ItemBody, { item })));

describe('the reason an item was sent back to review', () => {
  it('shows on the review screen and the item page when the table changed on re-import', () => {
    for (const html of [reviewScreen(buildItem('table_changed')), itemPage(buildItem('table_changed'))]) {
      expect(html).toContain('data-testid="requeue-reason"');
      expect(html).toContain(REASON_TEXT);
    }
  });

  it('shows nowhere when the system did not send the item back', () => {
    for (const html of [reviewScreen(buildItem(null)), itemPage(buildItem(null))]) {
      expect(html).not.toContain('requeue-reason');
      expect(html).not.toContain('Sent back to review');
    }
  });
});
