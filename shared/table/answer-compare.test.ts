import { describe, expect, it } from 'vitest';
import { answersAgree, goldAnswerAgrees, sameAnswer, writtenNumber } from './answer-compare';

describe('writtenNumber', () => {
  it.each([
    ['400', { value: 400, decimals: 0, percent: false }],
    ['41.5', { value: 41.5, decimals: 1, percent: false }],
    ['1,234.50', { value: 1234.5, decimals: 2, percent: false }],
    ['-3', { value: -3, decimals: 0, percent: false }],
    ['45%', { value: 45, decimals: 0, percent: true }],
    ['.5', { value: 0.5, decimals: 1, percent: false }],
  ])('reads %j', (answer, read) => {
    expect(writtenNumber(answer)).toEqual(read);
  });

  it.each(['not a number at all', 'Yes', '2019/20', '1,2', ''])('is null for %j', (answer) => {
    expect(writtenNumber(answer)).toBeNull();
  });
});

describe('goldAnswerAgrees: a person’s answer against the recomputed one, at the answer’s own precision', () => {
  it('never grants the 5 % tolerance a model’s prediction gets', () => {
    expect(answersAgree(418.8, '400', [])).toBe(true);
    expect(goldAnswerAgrees(418.8, '400')).toBe(false);
    expect(goldAnswerAgrees('418.8', '400')).toBe(false);
    expect(goldAnswerAgrees(241, '999')).toBe(false);
  });

  it.each([
    [41.48, '41.5', true],
    [41.48, '41.48', true],
    [41.48, '41', true],
    [41.48, '41.4', false],
    [41.45, '41.5', true],
    [418.8, '419', true],
    ['418.8', '418.80', true],
    [-41.48, '-41.5', true],
    [0.1 + 0.2, '0.3', true],
    [1234.5, '1,234.5', true],
    [45, '45%', true],
    [0.45, '45%', true],
    [0.45, '46%', false],
  ])('%j and %j: %s', (computed, answer, agrees) => {
    expect(goldAnswerAgrees(computed, answer)).toBe(agrees);
  });

  it('compares Yes/No and labels exactly, however spelled', () => {
    expect(goldAnswerAgrees(true, 'yes')).toBe(true);
    expect(goldAnswerAgrees(false, 'Yes')).toBe(false);
    expect(goldAnswerAgrees('Germany', ' germany. ')).toBe(true);
    expect(goldAnswerAgrees('Germany', 'France')).toBe(false);
    expect(goldAnswerAgrees(2018, '2020')).toBe(false);
  });
});

describe('sameAnswer: two people giving one answer', () => {
  it.each([
    ['241', '241', true],
    ['1,200', '1200.0', true],
    ['45%', '45', true],
    ['241', '241.3', false],
    ['999', '241', false],
    ['Yes', 'yes', true],
    ['Germany', 'germany', true],
    ['Germany', 'France', false],
    ['12', 'twelve', false],
  ])('%j and %j: %s', (a, b, same) => {
    expect(sameAnswer(a, b)).toBe(same);
    expect(sameAnswer(b, a)).toBe(same);
  });
});
