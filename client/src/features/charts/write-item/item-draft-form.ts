import { CreateItemRequestSchema, type CreateItemRequest } from '@shared/api/items';
import { classifyAnswer, type AnswerType } from '@shared/table/answers';
import { fieldErrorsOf, parseForm, type FieldErrors } from '../../../ui/form-errors';

/** The write-item form as typed. */
export type ItemDraftForm = {
  qaId: number | null;
  proposalId: number | null;
  assumption: string;
  question: string;
  answer: string;
  /** Null: follow the answer as typed (classifyAnswer), until the writer picks a type. */
  answerType: AnswerType | null;
  rationale: string;
  editText: string;
  program: string;
};

export function emptyDraft(qaId: number | null): ItemDraftForm {
  return {
    qaId,
    proposalId: null,
    assumption: '',
    question: '',
    answer: '',
    answerType: null,
    rationale: '',
    editText: '',
    program: '',
  };
}

export function effectiveAnswerType(draft: ItemDraftForm): AnswerType {
  return draft.answerType ?? classifyAnswer(draft.answer.trim());
}

/**
 * The request the form makes, checked with the shared schema before it is sent. An empty edit
 * is no edit (null); anything else must be JSON, then an edit the table engine accepts.
 */
export function toCreateItemRequest(draft: ItemDraftForm): { ok: CreateItemRequest } | { errors: FieldErrors } {
  let edit: unknown = null;
  if (draft.editText.trim() !== '') {
    try {
      edit = JSON.parse(draft.editText);
    } catch (error) {
      const detail = error instanceof Error ? `: ${error.message}` : '';
      return { errors: { edit: `not valid JSON${detail}` } };
    }
  }
  const parsed = parseForm(CreateItemRequestSchema, {
    qa_id: draft.qaId ?? undefined,
    proposal_id: draft.proposalId ?? undefined,
    assumption: draft.assumption,
    question: draft.question,
    answer: draft.answer,
    answer_type: effectiveAnswerType(draft),
    rationale: draft.rationale,
    edit,
    program: draft.program,
  });
  return parsed.success ? { ok: parsed.data } : { errors: fieldErrorsOf(parsed.error) };
}
