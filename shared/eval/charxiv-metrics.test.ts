import { describe, expect, it } from 'vitest';
import {
  DESCRIPTIVE_TEMPLATES,
  descriptiveJudgeQuestion,
  descriptiveQuestion,
  descriptiveTemplate,
  isValidScore,
  reasoningCategory,
  reasoningFamily,
  scoreDescriptive,
  scoreReasoning,
  scoreValue,
  subplotPrefix,
} from './charxiv-metrics';

describe('CharXiv templates', () => {
  it('puts every template in the group get_stats.py reports it under', () => {
    const groups = Object.fromEntries(DESCRIPTIVE_TEMPLATES.map((t) => [t.id, t.group]));
    const expected: Record<string, number[]> = {
      information_extraction: [1, 2, 3, 4, 5, 6, 7],
      enumeration: [8, 9, 13, 14, 15],
      pattern_recognition: [11, 16, 18],
      counting: [10, 12, 19],
      compositionality: [17],
    };
    for (const [group, ids] of Object.entries(expected)) for (const id of ids) expect(groups[id], `Q${id}`).toBe(group);
    expect(DESCRIPTIVE_TEMPLATES.map((t) => t.id)).toEqual(Array.from({ length: 19 }, (_, i) => i + 1));
  });

  it('grades each template under the rubric family get_rubric gives it', () => {
    const families = Object.fromEntries(DESCRIPTIVE_TEMPLATES.map((t) => [t.id, t.family]));
    expect(families[1]).toBe('title');
    for (const id of [2, 3, 4, 5, 6, 7]) expect(families[id], `Q${id}`).toBe('chart-text');
    for (const id of [8, 9, 10, 12, 14, 15, 17, 19]) expect(families[id], `Q${id}`).toBe('quantity');
    expect([families[11], families[13], families[16], families[18]]).toEqual(['yes-no', 'ordered-list', 'trend', 'layout']);
  });

  it('asks for the current plot, for a grid cell, or for a named subplot, and the layout questions of the whole figure', () => {
    expect(subplotPrefix([0, 0])).toBe('For the current plot, ');
    expect(subplotPrefix([2, 3])).toBe('For the subplot at row 2 and column 3, ');
    expect(subplotPrefix('the bottom left subplot')).toBe('For the bottom left subplot, ');
    expect(descriptiveQuestion(1, [0, 0]).split('\n')[0]).toBe('For the current plot, what is its title?');
    expect(descriptiveQuestion(13, [1, 2]).split('\n')[0]).toBe('For the subplot at row 1 and column 2, what are the names of the labels in the legend?');
    expect(descriptiveQuestion(18, [1, 2]).split('\n')[0]).toBe('What is the layout of the subplots?');
    expect(descriptiveQuestion(19, 'the bottom subplot').split('\n')[0]).toBe('What is the number of subplots?');
    // The instructions follow, one bullet a line; "Not Applicable" is how an absent part is answered.
    expect(descriptiveQuestion(1, [0, 0]).split('\n').slice(1)).toEqual([
      '* Your final answer should be the most relevant title of the plot that is explicitly written.',
      '* If the plot does not have an explicit title or contains only a letter, answer "Not Applicable".',
    ]);
    expect(descriptiveJudgeQuestion(10)).toBe('For the plot, how many lines are there?');
    expect(descriptiveJudgeQuestion(18)).toBe('What is the layout of the subplots?');
  });

  it('refuses template numbers and categories that do not exist, naming them', () => {
    expect(() => descriptiveTemplate(0)).toThrow(/template 0 does not exist/);
    expect(() => descriptiveTemplate(20)).toThrow(/template 20/);
    expect(() => descriptiveTemplate(1.5)).toThrow(/template 1.5/);
    expect(() => reasoningCategory(5)).toThrow(/inst_category 5/);
  });

  it('maps inst_category 1–4 to TC, TG, NC, NG, the two number categories sharing a rubric', () => {
    expect([1, 2, 3, 4].map(reasoningCategory)).toEqual(['TC', 'TG', 'NC', 'NG']);
    expect((['TC', 'TG', 'NC', 'NG'] as const).map(reasoningFamily)).toEqual(['text-in-chart', 'text-in-general', 'number', 'number']);
  });
});

describe('CharXiv grades', () => {
  it('counts only an exact 0 or 1 as a grade, anything else as an invalid 0', () => {
    expect([0, 1, 2, -1, 0.5, null].map(isValidScore)).toEqual([true, true, false, false, false, false]);
    expect([0, 1, 2, -1, 0.5, null].map(scoreValue)).toEqual([0, 1, 0, 0, 0, 0]);
  });

  it('averages descriptive grades × 100 per group, per template and overall', () => {
    // Q1 ×3 (1, 1, 0), Q13 ×2 (1, 2), Q11 ×1 (1), Q17 ×1 (null: the judge failed).
    const scores = scoreDescriptive([
      { templateId: 1, score: 1 },
      { templateId: 1, score: 1 },
      { templateId: 1, score: 0 },
      { templateId: 13, score: 1 },
      { templateId: 13, score: 2 },
      { templateId: 11, score: 1 },
      { templateId: 17, score: null },
    ]);
    // Overall 4 of 7 = 57.142857… → 57.14; two invalid grades (2 and null).
    expect(scores.overall).toEqual({ key: 'overall', label: 'Overall', questions: 7, correct: 4, invalid: 2, score: 57.14 });
    expect(scores.byGroup.map((g) => [g.key, g.questions, g.correct, g.score])).toEqual([
      ['information_extraction', 3, 2, 66.67], // 2/3 = 66.666… → 66.67
      ['enumeration', 2, 1, 50],
      ['pattern_recognition', 1, 1, 100],
      ['counting', 0, 0, null],
      ['compositionality', 1, 0, 0],
    ]);
    expect(scores.byTemplate).toHaveLength(19);
    expect(scores.byTemplate.find((t) => t.key === 'Q13')).toMatchObject({ questions: 2, correct: 1, invalid: 1, score: 50 });
  });

  it('rounds half-up: 1 of 8 is 12.5, 43.125 becomes 43.13', () => {
    // 69 of 160 = 43.125 exactly: half-up gives 43.13 (binary toFixed gives 43.12).
    const grades = Array.from({ length: 160 }, (_, i) => ({ category: 'NC' as const, score: i < 69 ? 1 : 0 }));
    expect(scoreReasoning(grades).overall.score).toBe(43.13);
    const eighth = Array.from({ length: 8 }, (_, i) => ({ category: 'TC' as const, score: i === 0 ? 1 : 0 }));
    expect(scoreReasoning(eighth).byCategory[0]).toMatchObject({ key: 'TC', score: 12.5 });
  });

  it('averages reasoning grades per category in TC, TG, NC, NG order', () => {
    const scores = scoreReasoning([
      { category: 'NG', score: 1 },
      { category: 'TC', score: 0 },
      { category: 'TC', score: 1 },
      { category: 'NC', score: 3 },
    ]);
    expect(scores.byCategory.map((c) => [c.key, c.label, c.questions, c.correct, c.invalid, c.score])).toEqual([
      ['TC', 'Text in chart', 2, 1, 0, 50],
      ['TG', 'Text in general', 0, 0, 0, null],
      ['NC', 'Number in chart', 1, 0, 1, 0],
      ['NG', 'Number in general', 1, 1, 0, 100],
    ]);
    expect(scores.overall).toMatchObject({ questions: 4, correct: 2, invalid: 1, score: 50 });
  });
});
