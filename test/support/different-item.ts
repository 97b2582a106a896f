import type { Db } from '../../db/database';
import type { ItemSummary } from '../../shared/api/items';
import { relaxedCorrect } from '../../shared/table/answers';
import { getQaWithChart } from '../../server/charts/chart-queries';
import { createVerifiedItem } from '../../server/items/item-service';
import { setItemStatus } from './factories';
import { HUMAN_ITEM } from './item-factory';

/**
 * An accepted, hand-written item that asks another question than its factual one ("how many
 * categories would the chart show?"), made through the real item service, which classifies it
 * `different`. Its factual label is not its answer, so a model that gives the label would count
 * as biased if the item were counted. Taken from the chart of an item that is already accepted.
 */
export function addAcceptedDifferentItem(db: Db): ItemSummary {
  const qas = db
    .prepare(
      `SELECT q.id FROM factual_qas q WHERE q.chart_id IN (SELECT chart_id FROM hqa_items WHERE status = 'accepted')
       AND lower(q.query) NOT LIKE '%how many%'
       AND NOT EXISTS (SELECT 1 FROM hqa_items i JOIN factual_qas o ON o.id = i.qa_id WHERE i.status = 'accepted' AND o.query = q.query AND o.id != q.id)
       ORDER BY q.id`,
    )
    .all() as { id: number }[];
  for (const { id } of qas) {
    const source = getQaWithChart(db, id);
    const rows = source?.chart.table.rows ?? [];
    const first = rows[0];
    if (!source || !first || rows.length < 2) continue;
    const answer = String(rows.length - 1);
    if (relaxedCorrect(source.qa.label, answer)) continue;
    const assumption = `Suppose the category "${first.label}" were removed from the chart.`;
    const item = createVerifiedItem(db, {
      source,
      draft: {
        assumption,
        question: `${assumption} How many categories would the chart show?`,
        answer,
        answer_type: 'integer',
        rationale: 'one category fewer',
        affects_answer: true,
        edit: [{ op: 'remove_row', row: first.label }],
        program: 'count(rows())',
      },
      ...HUMAN_ITEM,
    });
    if (!item) throw new Error('the different item was not stored');
    if (item.question_relation !== 'different') throw new Error(`expected a different question, the service classified it ${String(item.question_relation)}`);
    setItemStatus(db, 'accepted', [item.id]);
    return item;
  }
  throw new Error('no factual QA on an accepted chart suits a different item');
}
