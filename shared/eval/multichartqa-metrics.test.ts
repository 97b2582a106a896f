import { describe, expect, it } from 'vitest';
import { extractNumbers, normalizeAnswer, openShare, parseMultiChoice, parseOpenResponse, scoreMultiChartQa, scoreMultiChartQaAnswer, type MultiChartQaType } from './multichartqa-metrics';
import { readMultiChartQaSample } from '../../test/support/multichartqa-sample';

describe('parseMultiChoice', () => {
  it('reads "(A)", " A " and "A." forms, in that order of preference', () => {
    expect(parseMultiChoice('Answer: D')).toBe('D');
    expect(parseMultiChoice('D')).toBe('D');
    expect(parseMultiChoice('I pick (B) here')).toBe('B');
    expect(parseMultiChoice('C.')).toBe('C'); // the trailing full stop is stripped, leaving " C "
    expect(parseMultiChoice('Option:C.is right')).toBe('C'); // only the "C." form finds it
    // "(B)" wins over a lone " A " found earlier in the reply: the bracket form is tried first.
    expect(parseMultiChoice('A guess: (B)')).toBe('B');
  });

  it('takes the last candidate when several letters appear', () => {
    expect(parseMultiChoice('Not (A), the answer is (C)')).toBe('C');
    expect(parseMultiChoice('(C) looked right but (A) is')).toBe('A');
    expect(parseMultiChoice('Between B and D I choose D')).toBe('D');
  });

  // Vectors run through parse_multi_choice_response of Zivenzhu/Multi-chart-QA code/mmmu_utils.py
  // (all_choices A–D): several "A."-form candidates are ranked by rfind(" A "), -1 for each, and
  // np.argmax of a tie is the first candidate in choice order, not the last in the reply.
  it('takes the first letter in choice order (A–D) when several "A." forms are the only candidates', () => {
    expect(parseMultiChoice('B.is right, D.is wrong')).toBe('B');
    expect(parseMultiChoice('A.x C.y')).toBe('A');
    expect(parseMultiChoice('D.yes B.no')).toBe('B');
    expect(parseMultiChoice('Not C.Pick A.or so')).toBe('A');
  });

  it('reads "answer: x" in a long reply with no letter form, and gives null when nothing is found', () => {
    expect(parseMultiChoice('after long thought the final answer:b for sure')).toBeNull(); // no "answer: b" (no space)
    expect(parseMultiChoice('after long thought my Answer: b, is final')).toBe('B');
    expect(parseMultiChoice('no letter at all')).toBeNull();
    expect(parseMultiChoice('')).toBeNull();
  });
});

describe('parseOpenResponse', () => {
  it('takes the shortest tail after an indicator, plus the numbers in it', () => {
    // "answer: " gives "delhi; 600"; numbers add 600.
    expect(parseOpenResponse('Answer: Delhi; 600')).toEqual(['delhi; 600', 600]);
    // Both "is " and "so " occur; the shorter tail after "so " wins.
    // "so " leaves "42" and "is " the longer "high, so 42"; "42" normalises to the number 42 and the repeat goes.
    expect(parseOpenResponse('The value is high, so 42')).toEqual([42]);
  });

  it('reads each line, an equation on the last, and the whole reply without indicators', () => {
    expect(parseOpenResponse('first line is 3\n2 + 2 = 4')).toEqual([3, 4]);
    expect(parseOpenResponse('Germany.')).toEqual(['germany']);
  });

  it('normalises numbers with commas and rounds to two decimals', () => {
    expect(normalizeAnswer('1,234.567')).toBe(1234.57);
    expect(normalizeAnswer(' Text ')).toBe('text');
    expect(normalizeAnswer('8.2%')).toBe('8.2%');
    // The reference's three patterns, run independently: the plain one also finds "200" inside "1,200",
    // pieces of "3.5e2", and "-7" of "-7.25," (a number followed by a comma is refused, so it backs off).
    expect(extractNumbers('from 1,200 to 3.5e2 and -7.25, or .5')).toEqual(['1,200', '3.5e2', '200', '3', '2', '-7', '.5']);
  });
});

// Expected values are what the reference's normalize_str, extract_numbers and parse_open_response
// (Zivenzhu/Multi-chart-QA code/mmmu_utils.py) return under Python 3.
describe('the reference under Python 3: round(x, 2) and Unicode \\d / \\b', () => {
  it('rounds to two decimals as Python\'s round does: half to even on the float\'s exact value', () => {
    expect(normalizeAnswer('0.125')).toBe(0.12); // toFixed(2) gives 0.13
    expect(normalizeAnswer('0.375')).toBe(0.38);
    expect(normalizeAnswer('0.625')).toBe(0.62);
    expect(normalizeAnswer('-0.125')).toBe(-0.12);
    expect(normalizeAnswer('1,000.125')).toBe(1000.12);
    expect(normalizeAnswer('2.675')).toBe(2.67); // not a tie: the float is 2.67499…
    expect(normalizeAnswer('1.005')).toBe(1); // nor this: 1.00499…
    expect(new Set(parseOpenResponse('The answer is 0.125 units'))).toEqual(new Set([0.12, '0.125 units']));
    expect(new Set(parseOpenResponse('So it is 2.675 units'))).toEqual(new Set([2.67, '2.675 units']));
  });

  it('finds numbers written in any decimal digits, and none glued to a letter or a number sign', () => {
    expect(extractNumbers('the answer is ١٢ apples')).toEqual(['١٢']);
    expect(new Set(parseOpenResponse('The answer is ١٢ apples'))).toEqual(new Set([12, '١٢ apples']));
    expect(new Set(parseOpenResponse('The answer is ١٢.٥'))).toEqual(new Set([12.5]));
    // "µ" (U+00B5) is a letter, so no word boundary follows the 5.
    expect(extractNumbers('the width is 5µm wide')).toEqual([]);
    expect(parseOpenResponse('The width is 5µm wide')).toEqual(['5µm wide']);
    // "²" is a number and "_" a word character; a combining accent is neither.
    expect(extractNumbers('the value is 8² or 3_4')).toEqual(['4']);
    expect(extractNumbers('growth is 6\u0301 and ٣e٢ now')).toEqual(['٣e٢', '6', '٢']);
    expect(new Set(parseOpenResponse('Growth is 6\u0301 and ٣e٢ now'))).toEqual(new Set([2, 300, 6, '6\u0301 and ٣e٢ now']));
    // "٬" (Arabic thousands separator) is not the pattern's comma: the digits around it are read apart.
    expect(extractNumbers('the total is ١٬٢٣٤ or 1,234 people')).toEqual(['1,234', '١', '٢٣٤', '234']);
  });
});

describe('openShare and scoreMultiChartQaAnswer', () => {
  it('accepts a number within 5 % of the gold, and a % gold read divided by 100', () => {
    expect(openShare(['600'], [620])).toBe(1); // 3.3 %
    expect(openShare(['600'], [640])).toBe(0); // 6.7 %
    expect(openShare(['8.2%'], [0.08])).toBe(1); // 0.082 vs 0.08: 2.4 %
    expect(openShare(['8.2%'], [8.2])).toBe(0);
    expect(openShare(['8.2%'], ['about 8.2%'])).toBe(1); // contained string
  });

  it('counts a string when the gold is contained in the reply part', () => {
    expect(scoreMultiChartQaAnswer('open-ended', 'Air pollution vs. GDP per capita', 'Answer: Air pollution vs. GDP per capita, 1700 to 2015')).toBe(1);
    expect(scoreMultiChartQaAnswer('open-ended', 'Germany', 'Answer: France')).toBe(0);
  });

  it('gives partial credit per ; part when the whole answer is not right', () => {
    expect(scoreMultiChartQaAnswer('open-ended', 'Delhi; 600', 'Answer: Delhi; 600')).toBe(1);
    expect(scoreMultiChartQaAnswer('open-ended', 'Delhi; 600', 'Answer: Delhi; 500')).toBe(0.5);
    expect(scoreMultiChartQaAnswer('open-ended', 'Delhi; 600; 2015', 'Answer: London; 600; 2015')).toBeCloseTo(2 / 3, 12);
    expect(scoreMultiChartQaAnswer('multiple-choice', 'B; D', 'Answer: D')).toBe(0.5);
    expect(scoreMultiChartQaAnswer('multiple-choice', 'D', 'Answer: D')).toBe(1);
    expect(scoreMultiChartQaAnswer('multiple-choice', 'D', null)).toBe(0);
  });
});

describe('scoreMultiChartQa', () => {
  it('sums credit over all questions and per task', () => {
    const score = scoreMultiChartQa([
      { task: 'Direct_Questions/Content', type: 'open-ended', answer: 'Germany', reply: 'Answer: Germany' },
      { task: 'Parallel_Questions/Mixed', type: 'open-ended', answer: 'Delhi; 600', reply: 'Answer: Delhi; 1' },
      { task: 'Parallel_Questions/Mixed', type: 'open-ended', answer: 'Delhi; 600', reply: null },
      { task: 'Comparative_Reasoning/Easy', type: 'multiple-choice', answer: 'D', reply: '(A)' },
    ]);
    // 1 + 0.5 + 0 + 0 = 1.5 of 4.
    expect(score.overall).toEqual({ questions: 4, credit: 1.5, fullyRight: 1, missing: 1, accuracy: 37.5 });
    expect(score.byTask.get('Parallel_Questions/Mixed')).toEqual({ questions: 2, credit: 0.5, fullyRight: 0, missing: 1, accuracy: 25 });
    expect([...score.byTask.keys()]).toEqual(['Direct_Questions/Content', 'Parallel_Questions/Mixed', 'Comparative_Reasoning/Easy']);
    expect(score.byType.get('multiple-choice')?.accuracy).toBe(0);
  });
});

/**
 * Replies scored by MultiChartQA's own code/mmmu_utils.py (parse_multi_choice_response or
 * parse_open_response, then eval_multi_choice or eval_open with calculate_acc.py's partial-credit
 * retry), run with python3 on these inputs: [type, gold answer, reply, the reference's credit].
 */
const REFERENCE_VECTORS: [MultiChartQaType, string, string, number][] = [
  ['multiple-choice', "D", "Answer: D", 1.0],
  ['multiple-choice', "D", "The answer is (B). Wait, no: (D)", 1.0],
  ['multiple-choice', "B", "A. Climate\nB. Water\nso B.", 1.0],
  ['multiple-choice', "C", "Looking at both charts carefully, my final Answer: c", 1.0],
  ['multiple-choice', "A", "I think it is A because A is bigger", 1.0],
  ['multiple-choice', "A", "A", 1.0],
  ['multiple-choice', "C", "C.", 1.0],
  ['multiple-choice', "B; D", "Answer: B", 0.5],
  ['multiple-choice', "D", "Option D.A", 1.0],
  ['open-ended', "Delhi; 600", "Answer: Delhi; 600", 1.0],
  ['open-ended', "Delhi; 600", "Answer: Delhi; 590", 1.0],
  ['open-ended', "Delhi; 600", "The first is Delhi.\nThe second is 700", 0.5],
  ['open-ended', "Air pollution vs. GDP per capita, 1700 to 2015", "The title is: Air pollution vs. GDP per capita, 1700 to 2015.", 1.0],
  ['open-ended', "8.2%", "Answer: 8.2%", 1.0],
  ['open-ended', "8.2%", "Answer: 0.081", 1.0],
  ['open-ended', "8.2%", "Answer: 8.2", 0.0],
  ['open-ended', "1,200", "The total is 1,180 people", 1.0],
  ['open-ended', "0", "Answer: 0", 1.0],
  ['open-ended', "2015", "In 2015 the value was 3. So the answer is 2015.", 1.0],
  ['open-ended', "Germany", "germany", 1.0],
  ['open-ended', "Germany; France; 12", "Therefore germany, france = 12.5", 0.333333333333],
  ['open-ended', "3.5", "x = 7/2 = 3.5", 1.0],
  ['open-ended', "Not Applicable", "Answer: Not applicable", 1.0],
  ['open-ended', "1.5e3", "It is 1500", 1.0],
  ['open-ended', "12", "Answer:\n12", 1.0],
  ['open-ended', "45", "the result is 44.999 and thus 45.", 1.0],
];

describe('agreement with the reference implementation', () => {
  it.each(REFERENCE_VECTORS)('%s %j ← %j earns %d', (type, answer, reply, credit) => {
    expect(scoreMultiChartQaAnswer(type, answer, reply)).toBeCloseTo(credit, 12);
  });
});

describe('the real MultiChartQA sample (3 Our World in Data groups × 4 questions)', () => {
  const questions = readMultiChartQaSample();

  it('gold answers in the prompt\'s "Answer:" format all earn full credit', () => {
    expect(questions).toHaveLength(12);
    const score = scoreMultiChartQa(questions.map((q) => ({ ...q, reply: `Let me read both charts.\nAnswer: ${q.answer}` })));
    expect(score.overall).toMatchObject({ questions: 12, fullyRight: 12, accuracy: 100 });
  });

  it('a wrong letter for every multiple-choice question and the gold elsewhere: accuracy is the open-ended share, per task', () => {
    const wrongLetter = (gold: string) => (gold === 'A' ? 'B' : 'A');
    const score = scoreMultiChartQa(questions.map((q) => ({ ...q, reply: `Answer: ${q.type === 'multiple-choice' ? wrongLetter(q.answer) : q.answer}` })));
    const open = questions.filter((q) => q.type === 'open-ended').length;
    expect(score.overall.accuracy).toBeCloseTo((open / 12) * 100, 10);
    for (const [task, slice] of score.byTask) {
      const inTask = questions.filter((q) => q.task === task);
      expect(slice.credit).toBe(inTask.filter((q) => q.type === 'open-ended').length);
      expect(slice.questions).toBe(inTask.length);
    }
  });
});
