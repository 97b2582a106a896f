import { z } from 'zod';
import { freeText } from '../domain/text-input';
import { AnswerTypeSchema } from '../table/answers';
import { EditSchema } from '../table/edit';

/**
 * What Stage 2 (the model, the offline engine, or a person) writes for one factual QA: the
 * counterfactual item with its machine-checkable edit and program. Also the structured-output
 * schema sent to the model, so every field says what it wants.
 */
// Text fields are free text (shared/domain/text-input.ts): lone surrogates refused, NUL and bidi controls stripped.
// Field order matters under strict structured output: the model writes keys in this order, so it
// works out the edit and program before it commits to an answer.
export const HqaItemDraftSchema = z.object({
  assumption: freeText().trim().min(1).max(600).describe('The counterfactual premise alone, e.g. "Suppose the share of Germany doubled."'),
  question: freeText()
    .trim()
    .min(1)
    .max(1000)
    .describe('The full hypothetical question: the assumption followed by the question to answer on the assumed chart.'),
  rationale: freeText().trim().min(1).max(2000).describe('Short reasoning from the assumed data to the answer.'),
  edit: EditSchema.describe('The assumption as edit operations on the data table.'),
  program: z.string().trim().min(1).max(2000).describe('An expression in the table program language that computes the answer on the edited table.'),
  answer: freeText().trim().min(1).max(200).describe('The answer on the assumed chart, in ChartQA style: a number without units, Yes/No, or a label from the chart.'),
  answer_type: AnswerTypeSchema.describe('integer, decimal, boolean (Yes/No) or text'),
  affects_answer: z.boolean().describe('Whether the assumption changes the answer of the original factual question.'),
});
export type HqaItemDraft = z.infer<typeof HqaItemDraftSchema>;

/** Stage 1's output: new general counterfactual operations for one chart type. */
export const ProposalBatchSchema = z.object({
  proposals: z
    .array(z.string().trim().min(10).max(400))
    .min(1)
    .max(20)
    .describe('New general counterfactual instruction proposals for this chart type, one sentence each.'),
});
export type ProposalBatch = z.infer<typeof ProposalBatchSchema>;
