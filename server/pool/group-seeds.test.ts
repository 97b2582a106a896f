import { describe, expect, it } from 'vitest';
import { parseIntent } from '../../shared/generation/proposal-intent';
import { rougeLF } from '../../shared/generation/similarity';
import { groupSeedTexts } from './group-seeds';

describe('the group-scope seeds (prompts/group-seeds.json)', () => {
  const seeds = groupSeedTexts();

  it('are distinct operations, none a near copy of another', () => {
    for (const [i, a] of seeds.entries()) {
      for (const b of seeds.slice(i + 1)) expect(rougeLF(a, b), `${a} / ${b}`).toBeLessThan(0.7);
    }
  });

  it('each name an operation the offline rules perform on the value the question reads, never a row rank', () => {
    for (const seed of seeds) {
      const intent = parseIntent(seed);
      expect(intent.kind, seed).not.toBeNull();
      expect(intent).toMatchObject({ asked: true, everyRow: false, selectors: [] });
    }
  });

  it('name no chart by its position: one list serves groups in any order', () => {
    for (const seed of seeds) expect(seed).not.toMatch(/\b(first|second|third|fourth) chart\b/i);
  });
});
