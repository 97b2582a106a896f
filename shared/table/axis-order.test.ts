import { describe, expect, it } from 'vitest';
import { axisDirection, insertionIndex, orderKey } from './axis-order';

describe('axis order', () => {
  it('reads years, seasons and quarters as positions', () => {
    expect(['2017', '2019*', '2019/20', 'Q1 2018', 'Q3 2018', 'Later'].map(orderKey)).toEqual([2017, 2019, 2019, 2018, 2018.5, null]);
  });

  it('recognises strictly ordered axes only', () => {
    expect(axisDirection(['2017', 'Q1 2018'])).toBe('ascending');
    expect(axisDirection(['2019/20*', '2018/19', '2017/18'])).toBe('descending');
    expect(axisDirection(['2017', '2017'])).toBeNull();
    expect(axisDirection(['2017', '2019', '2018'])).toBeNull();
    expect(axisDirection(['2017'])).toBeNull();
    expect(axisDirection(['Yes', 'No'])).toBeNull();
  });

  it('finds where a new label goes', () => {
    expect(insertionIndex(['2020', '2019', '2018'], '2021')).toBe(0);
    expect(insertionIndex(['2020', '2019', '2018'], '2017')).toBe(3);
    expect(insertionIndex(['2016', '2018'], '2017')).toBe(1);
    expect(insertionIndex(['2016', '2018'], 'Later')).toBe(2);
    expect(insertionIndex(['A', 'B'], '2017')).toBe(2);
  });
});
