import { parse, View } from 'vega';
import { expressionInterpreter } from 'vega-interpreter';
import { describe, expect, it } from 'vitest';
import type { PoolAnalyticsResponse } from '@shared/api/analytics';
import { SUNBURST_SIZE_PX, sunburstFigure, sunburstNodes } from './figures';

const OPERATIONS: PoolAnalyticsResponse['operations'] = [
  { chart_type: 'pie', noun: 'slice', verb: 'remove', count: 3 },
  { chart_type: 'pie', noun: 'slice', verb: 'merge', count: 1 },
  { chart_type: 'pie', noun: 'share', verb: 'double', count: 4 },
  { chart_type: 'line', noun: 'line', verb: 'extend', count: 5 },
];

describe('the operation sunburst', () => {
  it('builds centre → nouns → verbs for one chart type, with sizes on the verbs only', () => {
    const nodes = sunburstNodes(OPERATIONS, 'pie');
    expect(nodes).toEqual([
      { id: 'root', parent: null, name: 'Pie', noun: '', size: 0, count: 8 },
      { id: 'n:slice', parent: 'root', name: 'slice', noun: 'slice', size: 0, count: 4 },
      { id: 'n:share', parent: 'root', name: 'share', noun: 'share', size: 0, count: 4 },
      { id: 'v:slice|remove', parent: 'n:slice', name: 'remove', noun: 'slice', size: 3, count: 3 },
      { id: 'v:slice|merge', parent: 'n:slice', name: 'merge', noun: 'slice', size: 1, count: 1 },
      { id: 'v:share|double', parent: 'n:share', name: 'double', noun: 'share', size: 4, count: 4 },
    ]);
  });

  it('draws nouns on the inner ring and verbs on the outer, each arc in proportion to its proposals (under the CSP-safe interpreter)', async () => {
    const figure = sunburstFigure(sunburstNodes(OPERATIONS, 'pie'));
    if (figure.kind !== 'vega') throw new Error('the sunburst is a Vega spec');
    const view = new View(parse(figure.spec, undefined, { ast: true }), { renderer: 'none', expr: expressionInterpreter });
    await view.runAsync();
    type Arc = { id: string; depth: number; a0: number; a1: number; r0: number; r1: number };
    const arcs = view.data('tree') as Arc[];
    const arc = (id: string) => arcs.find((a) => a.id === id) as Arc;
    const radius = SUNBURST_SIZE_PX / 2;

    expect(arc('n:slice').depth).toBe(1);
    expect(arc('v:slice|remove').depth).toBe(2);
    expect(arc('n:slice').r1).toBeCloseTo(arc('v:slice|remove').r0);
    expect(arc('v:slice|remove').r1).toBeCloseTo(radius);
    // slice: 4 of 8 proposals, half the circle; remove: 3 of them.
    expect(arc('n:slice').a1 - arc('n:slice').a0).toBeCloseTo(Math.PI);
    expect(arc('v:slice|remove').a1 - arc('v:slice|remove').a0).toBeCloseTo((3 / 8) * 2 * Math.PI);
    view.finalize();
  });
});
