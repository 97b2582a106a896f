import { describe, expect, it } from 'vitest';
import { AnswerTypeSchema, classifyAnswer, relaxedCorrect, RELAXED_TOLERANCE, toFloat } from './answers';

describe('classifyAnswer', () => {
  it.each([
    ['Yes', 'boolean'],
    ['no', 'boolean'],
    [' YES ', 'boolean'],
    ['12', 'integer'],
    ['-3', 'integer'],
    ['1,200', 'integer'],
    ['45%', 'integer'],
    ['2017', 'integer'],
    ['3.5', 'decimal'],
    ['0.08', 'decimal'],
    ['3.5%', 'decimal'],
    ['-0.63', 'decimal'],
    ['1,200.5', 'decimal'],
    ['Bridgestone (Japan)', 'text'],
    ['2019/20', 'text'],
    ['[2003,2009]', 'text'],
    ['1,2', 'text'],
    ['Yes, but', 'text'],
    ['', 'text'],
  ])('%j is %s', (answer, type) => {
    expect(classifyAnswer(answer)).toBe(type);
    expect(AnswerTypeSchema.parse(type)).toBe(type);
  });
});

describe('relaxedCorrect', () => {
  it('uses the 5% tolerance of the ChartQA reference', () => {
    expect(RELAXED_TOLERANCE).toBe(0.05);
    expect(relaxedCorrect('105', '100')).toBe(true);
    expect(relaxedCorrect('95', '100')).toBe(true);
    expect(relaxedCorrect('105.1', '100')).toBe(false);
    expect(relaxedCorrect('-96', '-100')).toBe(true);
    expect(relaxedCorrect('14195100', '14005615')).toBe(true);
  });

  it('accepts a custom tolerance', () => {
    expect(relaxedCorrect('110', '100', 0.1)).toBe(true);
    expect(relaxedCorrect('110', '100', 0)).toBe(false);
  });

  it('divides a trailing % by 100, so 45% equals 0.45 but not 45', () => {
    expect(toFloat('45%')).toBe(0.45);
    expect(relaxedCorrect('45%', '0.45')).toBe(true);
    expect(relaxedCorrect('0.45', '45%')).toBe(true);
    expect(relaxedCorrect('45', '45%')).toBe(false);
    expect(relaxedCorrect('44%', '45%')).toBe(true);
  });

  it('falls back to an exact, case-insensitive match when the target is zero', () => {
    expect(relaxedCorrect('0', '0')).toBe(true);
    expect(relaxedCorrect('0.0', '0')).toBe(false);
    expect(relaxedCorrect('0.001', '0')).toBe(false);
  });

  it('compares text case-insensitively after trimming', () => {
    expect(relaxedCorrect('yes', 'Yes')).toBe(true);
    expect(relaxedCorrect(' Eden Hazard ', 'eden hazard')).toBe(true);
    expect(relaxedCorrect('Eden', 'Eden Hazard')).toBe(false);
    expect(relaxedCorrect('12', 'twelve')).toBe(false);
  });

  it("reads numbers the way Python's float() does", () => {
    expect(toFloat(' 12.5 ')).toBe(12.5);
    expect(toFloat('1e3')).toBe(1000);
    expect(toFloat('1_000')).toBe(1000);
    expect(toFloat('.5')).toBe(0.5);
    expect(toFloat('5.')).toBe(5);
    expect(toFloat('-inf')).toBe(Number.NEGATIVE_INFINITY);
    expect(toFloat('NaN')).toBeNaN();
    expect(toFloat('1,200')).toBeNull();
    expect(toFloat('1__0')).toBeNull();
    expect(toFloat('')).toBeNull();
    expect(toFloat('.')).toBeNull();
    expect(toFloat('e5')).toBeNull();
    expect(toFloat('0x10')).toBeNull();
  });

  it('never matches a NaN target numerically, as in the reference', () => {
    expect(relaxedCorrect('1', 'nan')).toBe(false);
    expect(relaxedCorrect('nan', 'nan')).toBe(false);
  });

  it('compares 1,200-style numbers as text, as the reference does', () => {
    expect(relaxedCorrect('1,200', '1,200')).toBe(true);
    expect(relaxedCorrect('1200', '1,200')).toBe(false);
  });
});
