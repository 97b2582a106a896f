import { describe, expect, it } from 'vitest';
import { columnStyle, formatCellRaw } from './cell-format';

describe('formatCellRaw', () => {
  it('writes a number the way its column writes numbers', () => {
    expect(formatCellRaw(20, columnStyle(['16%', '11%']))).toBe('20%');
    expect(formatCellRaw(1234567.5, columnStyle(['$1,200', '$950']))).toBe('$1,234,567.5');
    expect(formatCellRaw(-12, columnStyle(['$5']))).toBe('-$12');
    expect(formatCellRaw(3.311162, columnStyle(['1.655581', 'nan']))).toBe('3.311162');
    expect(formatCellRaw(7.5, columnStyle(['5', '6']))).toBe('7.5');
    expect(formatCellRaw(0.1 + 0.2, columnStyle(['1']))).toBe('0.3');
    expect(formatCellRaw(-0.000001, columnStyle(['1']))).toBe('0');
  });

  it('never writes exponent notation or binary noise for large values', () => {
    expect(formatCellRaw(123456789012345680000, columnStyle(['1']))).toBe('123456789012345680000');
    expect(formatCellRaw(12345678901234568, columnStyle(['1,000']))).toBe('12,345,678,901,234,568');
  });

  it('ignores missing and text cells when reading the style', () => {
    expect(columnStyle(['nan', 'Yes', '12.5*'])).toEqual({ percent: false, currency: '', thousands: false, decimals: 1 });
  });
});
