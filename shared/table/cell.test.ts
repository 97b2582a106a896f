import { describe, expect, it } from 'vitest';
import { isMissingCell, parseCellValue } from './cell';

describe('parseCellValue', () => {
  it('reads plain numbers with their precision', () => {
    expect(parseCellValue('1.655581')).toBe(1.655581);
    expect(parseCellValue('9.0')).toBe(9);
    expect(parseCellValue('-3.5')).toBe(-3.5);
  });
  it('treats nan, - and empty cells as missing', () => {
    for (const raw of ['nan', '-', '', '  ']) {
      expect(parseCellValue(raw)).toBeNull();
      expect(isMissingCell(raw)).toBe(true);
    }
  });
  it('strips units, thousands separators and footnote marks', () => {
    expect(parseCellValue('32.7%')).toBe(32.7);
    expect(parseCellValue('$1,200.5')).toBe(1200.5);
    expect(parseCellValue('12.5*')).toBe(12.5);
  });
  it('keeps text that is not a number as non-numeric', () => {
    expect(parseCellValue('Yes')).toBeNull();
    expect(isMissingCell('Yes')).toBe(false);
    expect(parseCellValue('1,2,3')).toBeNull();
  });
});
