import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { ConfigError } from '../config-error';
import { DEFAULT_PASSWORD_COST, hashPassword, passwordCost, verifyPassword } from './passwords';

const before = process.env.HQA_PASSWORD_COST;
afterEach(() => {
  if (before === undefined) delete process.env.HQA_PASSWORD_COST;
  else process.env.HQA_PASSWORD_COST = before;
});

describe('password hashes', () => {
  it('are made at the cost HQA_PASSWORD_COST names, and verify at the cost they were made with', async () => {
    process.env.HQA_PASSWORD_COST = '11';
    const stored = await hashPassword('correct horse');
    expect(stored.split('$').slice(0, 4)).toEqual(['scrypt', '2048', '8', '1']);
    // The cost changed since: an old hash still verifies, by its own parameters.
    process.env.HQA_PASSWORD_COST = '10';
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct horsf', stored)).toBe(false);
    expect((await hashPassword('correct horse')).split('$')[1]).toBe('1024');
  });

  it('are made at 2^15 when nothing is set: the production default', () => {
    expect(passwordCost({})).toBe(DEFAULT_PASSWORD_COST);
    expect(DEFAULT_PASSWORD_COST).toBe(15);
    expect(passwordCost({ HQA_PASSWORD_COST: '' })).toBe(15);
  });

  it('say no for a user that does not exist, and for what is not a hash', async () => {
    process.env.HQA_PASSWORD_COST = '10';
    expect(await verifyPassword('anything', null)).toBe(false);
    expect(await verifyPassword('anything', 'not-a-hash')).toBe(false);
  });
});

describe('HQA_PASSWORD_COST', () => {
  it.each(['9', '19', '12.5', 'high', '-1'])('refuses %s, naming the variable and the range', (raw) => {
    expect(() => passwordCost({ HQA_PASSWORD_COST: raw })).toThrow(ConfigError);
    expect(() => passwordCost({ HQA_PASSWORD_COST: raw })).toThrow(`HQA_PASSWORD_COST=${raw}: expected an integer from 10 to 18`);
  });

  it('is checked when the configuration loads, so a bad value stops the start', () => {
    expect(() => loadConfig({ HQA_PASSWORD_COST: '40' })).toThrow('HQA_PASSWORD_COST=40');
    expect(() => loadConfig({ HQA_PASSWORD_COST: '12' })).not.toThrow();
  });
});
