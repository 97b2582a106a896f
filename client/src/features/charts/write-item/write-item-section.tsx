import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import type { FactualQa } from '@shared/api/charts';
import type { ItemDetail } from '@shared/api/items';
import type { ChartType } from '@shared/domain/chart-types';
import { roleAtLeast } from '@shared/domain/roles';
import { ANSWER_TYPES, AnswerTypeSchema } from '@shared/table/answers';
import { errorMessage } from '../../../api/http';
import { useCurrentUser } from '../../../auth/session';
import { Field } from '../../../ui/field';
import { serverFieldMessage, serverFieldOf, type FieldErrors } from '../../../ui/form-errors';
import { ItemListTable } from '../../../views/item-list-table';
import { BiasFlags } from '../../../views/item-tags';
import { useCreateItem, useItems } from '../../../api/items-api';
import { VerifierView } from '../../../views/verifier-view';
import { useProposals } from '../../../api/pool-api';
import { effectiveAnswerType, emptyDraft, toCreateItemRequest, type ItemDraftForm } from './item-draft-form';

/** Proposals offered to credit an item to: the active ones of the chart's type. */
const PROPOSAL_CHOICES = 200;

/** What the verifier compared to decide whether the assumption changes the answer (shared/generation/affects-answer.ts). */
function affectsBasis(item: ItemDetail): string {
  const { original_answer: before, recomputed_answer: after, answer_unchanged: unchanged } = item.verifier;
  if (unchanged !== null) return `the program gives ${before ?? '?'} before the edit and ${after ?? '?'} after`;
  return `the answer ${item.answer} against the factual label`;
}

function SavedVerdict({ item }: { item: ItemDetail }) {
  return (
    <section className="notice write-item-result" aria-labelledby="write-item-result-heading" data-testid="write-item-result">
      <h3 id="write-item-result-heading">
        Saved as <Link to={`/items/${item.id}`}>item #{item.id}</Link>
      </h3>
      <VerifierView result={item.verifier} answer={item.answer} hasEdit={item.edit !== null} />
      <p data-testid="write-item-affects">
        <strong>The assumption {item.affects_answer ? 'changes' : 'does not change'} the factual answer</strong>{' '}
        <span className="muted small">(computed by the verifier: {affectsBasis(item)})</span>
      </p>
      <p className="bias-line">
        <strong>Bias flags:</strong> <BiasFlags flags={item.bias_flags} />
      </p>
    </section>
  );
}

function TextArea({
  label,
  field,
  value,
  onChange,
  error,
  rows = 2,
  mono = false,
  placeholder,
}: {
  label: string;
  field: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  rows?: number;
  mono?: boolean;
  placeholder?: string;
}) {
  return (
    <Field label={label} error={error} className="grow">
      {(control) => (
        <textarea
          {...control}
          name={field}
          rows={rows}
          className={mono ? 'mono' : undefined}
          spellCheck={!mono}
          placeholder={placeholder}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}

/** The write-item form: one factual QA, the item's fields, verified by the server on save. */
function WriteItemForm({ qas, chartType }: { qas: FactualQa[]; chartType: ChartType }) {
  const create = useCreateItem();
  // Only curators credit an item to a proposal: it counts toward the proposal's pass rate and reflection.
  const mayAttach = roleAtLeast(useCurrentUser().role, 'curator');
  const proposals = useProposals({ chart_type: chartType, status: 'active', page: 1, page_size: PROPOSAL_CHOICES });
  const [draft, setDraft] = useState<ItemDraftForm>(() => emptyDraft(qas[0]?.id ?? null));
  const [errors, setErrors] = useState<FieldErrors>({});
  const set = <K extends keyof ItemDraftForm>(key: K, value: ItemDraftForm[K]) => setDraft((current) => ({ ...current, [key]: value }));
  const qa = qas.find((q) => q.id === draft.qaId);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const request = toCreateItemRequest(draft);
    if ('errors' in request) {
      setErrors(request.errors);
      return;
    }
    setErrors({});
    create.mutate(request.ok);
  };
  // Enter in a one-line field submits natively; in the multi-line ones Ctrl/⌘+Enter does.
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      event.currentTarget.requestSubmit();
    }
  };

  const serverField = serverFieldOf(create.error);
  const errorFor = (field: string) => errors[field] ?? (create.error && serverField === field ? serverFieldMessage(create.error) : undefined);
  const answerType = effectiveAnswerType(draft);

  return (
    <form className="write-item" onSubmit={onSubmit} onKeyDown={onKeyDown} noValidate data-testid="write-item-form" aria-label="Write an item">
      <div className="form-row">
        <Field label="Factual question" className="grow" error={errorFor('qa_id')}>
          {(control) => (
            <select {...control} name="qa_id" value={draft.qaId ?? ''} onChange={(event) => set('qaId', Number(event.target.value) || null)}>
              {qas.map((q) => (
                <option key={q.id} value={q.id}>
                  {q.query} — {q.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        {mayAttach && (
          <Field label="Proposal (optional)" error={errorFor('proposal_id')}>
            {(control) => (
              <select
                {...control}
                name="proposal_id"
                value={draft.proposalId ?? ''}
                onChange={(event) => set('proposalId', Number(event.target.value) || null)}
                className="proposal-select"
              >
                <option value="">none</option>
                {(proposals.data?.proposals ?? []).map((p) => (
                  <option key={p.id} value={p.id}>
                    #{p.id} {p.text}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
      </div>
      {qa && (
        <p className="muted small" data-testid="write-item-factual">
          Factual label: <span className="mono">{qa.label}</span>
        </p>
      )}
      <Field label="Assumption" error={errorFor('assumption')}>
        {(control) => (
          <input
            {...control}
            name="assumption"
            autoComplete="off"
            placeholder="Suppose the share of Germany doubled."
            value={draft.assumption}
            onChange={(event) => set('assumption', event.target.value)}
          />
        )}
      </Field>
      <TextArea
        label="Question"
        field="question"
        value={draft.question}
        onChange={(v) => set('question', v)}
        error={errorFor('question')}
        placeholder="The assumption followed by the question to answer on the assumed chart."
      />
      <div className="form-row">
        <Field label="Answer" error={errorFor('answer')}>
          {(control) => (
            <input {...control} name="answer" autoComplete="off" value={draft.answer} onChange={(event) => set('answer', event.target.value)} />
          )}
        </Field>
        <Field label="Answer type" error={errorFor('answer_type')}>
          {(control) => (
            <select
              {...control}
              name="answer_type"
              value={answerType}
              onChange={(event) => {
                const type = AnswerTypeSchema.safeParse(event.target.value);
                if (type.success) set('answerType', type.data);
              }}
            >
              {ANSWER_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                  {draft.answerType === null && type === answerType ? ' (from the answer)' : ''}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <TextArea label="Rationale" field="rationale" value={draft.rationale} onChange={(v) => set('rationale', v)} error={errorFor('rationale')} />
      <div className="form-row">
        <TextArea
          label="Edit (JSON, optional)"
          field="edit"
          value={draft.editText}
          onChange={(v) => set('editText', v)}
          error={errorFor('edit')}
          rows={3}
          mono
          placeholder='[{"op":"scale","row":"…","factor":2}]'
        />
        <TextArea
          label="Program"
          field="program"
          value={draft.program}
          onChange={(v) => set('program', v)}
          error={errorFor('program')}
          rows={3}
          mono
          placeholder='value("…")'
        />
      </div>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? 'Saving…' : 'Save item'}
        </button>
        <span className="muted small">
          Ctrl+Enter saves from any field · the Try it panel above runs an edit and a program live · whether the assumption changes the
          factual answer is computed by the verifier on save
        </span>
        {create.isError && !serverField && (
          <span className="error" role="alert">
            {errorMessage(create.error)}
          </span>
        )}
      </div>
      {create.data && <SavedVerdict item={create.data.item} />}
    </form>
  );
}

function ChartItems({ chartId }: { chartId: number }) {
  const navigate = useNavigate();
  const items = useItems({ chart_id: chartId, page: 1, page_size: 50 });
  if (items.isPending) return <p className="muted">Loading items…</p>;
  if (items.isError) {
    return (
      <p className="error" role="alert">
        Could not load this chart’s items: {errorMessage(items.error)}
      </p>
    );
  }
  if (items.data.total === 0) return <p className="empty">No items on this chart yet.</p>;
  return (
    <>
      <ItemListTable items={items.data.items} showChart={false} keyboard={false} onOpen={(item) => void navigate(`/items/${item.id}`)} />
      {items.data.total > items.data.items.length && (
        <p className="small">
          <Link to={`/items?chart=${chartId}`}>All {items.data.total} items of this chart</Link>
        </p>
      )}
    </>
  );
}

/**
 * Hand-written items on a chart's page: reviewers and curators write an item for one of the
 * chart's factual QAs, stored and verified like a generated one; below, the chart's items.
 */
export function WriteItemSection({ chartId, chartType, qas }: { chartId: number; chartType: ChartType; qas: FactualQa[] }) {
  return (
    <section className="panel write-item-section" aria-labelledby="write-item-heading">
      <h2 id="write-item-heading">Write an item</h2>
      <p className="muted small">
        A hypothetical question of your own for one of this chart’s factual questions. The server runs your edit and program like
        it does for generated items and shows its verdict.
      </p>
      {qas.length === 0 ? (
        <p className="empty">This chart has no factual questions to write an item for.</p>
      ) : (
        <WriteItemForm key={chartId} qas={qas} chartType={chartType} />
      )}
      <h3>Items on this chart</h3>
      <ChartItems chartId={chartId} />
    </section>
  );
}
