import { describe, expect, it } from 'vitest';
import { charXivNumberInstruction, charXivReasoningQuestion } from './charxiv-templates';

describe('CharXiv reasoning questions as CharXiv asks them', () => {
  it('derives the number instruction as get_number_instruction does: integer, else the answer’s decimal places', () => {
    expect(charXivNumberInstruction('12')).toBe('* Your final answer must be an exact integer.');
    expect(charXivNumberInstruction('0.25')).toBe('* Your final answer must be a number with 2 decimal places.');
    // "3.0".split(".") has a decimal part of one character: one decimal place.
    expect(charXivNumberInstruction('3.0')).toBe('* Your final answer must be a number with 1 decimal places.');
  });

  it('puts the category’s instructions after the question (REASONING_RESP_INST.format(question))', () => {
    const asked = charXivReasoningQuestion('Which line is highest?', 1, 'Ours');
    expect(asked.split('\n')).toEqual([
      'Which line is highest?',
      '* Your final answer must be grounded to some text that is explicitly written and relevant to the question in the chart.',
      '* If you need to answer multiple terms, separate them with commas.',
      '* Unless specified in the question (such as answering with a letter), you are required to answer the full names of subplots and/or labels by default.',
    ]);
    expect(charXivReasoningQuestion('How many?', 4, '7')).toBe('How many?\n* Your final answer must be an exact integer.');
    expect(charXivReasoningQuestion('How much?', 3, '4.5').split('\n')[1]).toMatch(/^\* Your final answer must be grounded to a number that is exlicitly written/);
  });
});
