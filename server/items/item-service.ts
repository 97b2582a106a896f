import type { Db } from '../../db/database';
import type { ItemSummary } from '../../shared/api/items';
import type { ItemOrigin } from '../../shared/domain/generation';
import { runProgram } from '../../shared/table/program';
import { biasFlags } from '../../shared/generation/bias-guards';
import type { HqaItemDraft } from '../../shared/generation/item-draft';
import { verifyItem } from '../../shared/table/verify';
import type { QaWithChart } from '../charts/chart-queries';
import { getItemSummary, insertItem } from './item-queries';

/** Idempotency key of a generated item: one per proposal × factual QA, whatever run makes it. */
export const itemKey = (proposalId: number, qaId: number) => `p${proposalId}:q${qaId}`;

export interface NewItem {
  source: QaWithChart;
  draft: Omit<HqaItemDraft, 'edit'> & { edit: HqaItemDraft['edit'] | null };
  origin: ItemOrigin;
  proposalId: number | null;
  runId: number | null;
  model: string | null;
  createdBy: number | null;
  idempotencyKey: string | null;
}

/**
 * Verifies a draft against its chart's table (edit applied, program rerun, lint), computes the
 * bias guards, and stores the item with its verdict. Returns null when the key already made an
 * item (a resumed run), so nothing is made twice.
 */
export function createVerifiedItem(db: Db, item: NewItem): ItemSummary | null {
  const verifier = verifyItem({
    table: item.source.chart.table,
    chartType: item.source.chart.chart_type,
    edit: item.draft.edit,
    program: item.draft.program,
    answer: item.draft.answer,
  });
  const unedited = runProgram(item.source.chart.table, item.draft.program);
  const flags = biasFlags({
    affectsAnswer: item.draft.affects_answer,
    answer: item.draft.answer,
    factualLabel: item.source.qa.label,
    recomputedAnswer: verifier.recomputed_answer,
    uneditedAnswer: unedited.ok ? unedited.answer : null,
  });
  const id = insertItem(db, {
    qaId: item.source.qa.id,
    chartId: item.source.chart.id,
    proposalId: item.proposalId,
    runId: item.runId,
    origin: item.origin,
    model: item.model,
    createdBy: item.createdBy,
    draft: item.draft,
    verifier,
    biasFlags: flags,
    idempotencyKey: item.idempotencyKey,
  });
  return id === null ? null : getItemSummary(db, id);
}
