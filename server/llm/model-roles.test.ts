import { describe, expect, it } from 'vitest';
import { FACTUAL_BASELINE_MODEL } from '../../shared/api/evaluations';
import { OFFLINE_MODEL } from '../../shared/domain/generation';
import { SettingsSchema } from '../../shared/settings';
import { loadConfig } from '../config';
import { CURATOR_TABLE_ENTRY, CURATOR_TYPE_TRIAGE, EVAL_MAX_ATTEMPTS, EVAL_TIMEOUT_MS, hasModelEndpoint, MODEL_ROLES, providersFor, RULE_JUDGE } from './model-roles';

const settings = SettingsSchema.parse({
  generation_model: 'gpt-4.1-mini',
  temperature: 0.4,
  request_timeout_ms: 30_000,
  max_retries: 2,
  price_table: { 'gpt-4.1-mini': { input_per_mtok: 0.4, output_per_mtok: 1.6 } },
});

describe('providersFor', () => {
  it('without OPENAI_API_KEY every role has no connection and names its stand-in', () => {
    const providers = providersFor(settings, loadConfig({ OPENAI_BASE_URL: 'http://llm.lan/v1' }));
    for (const role of MODEL_ROLES) expect(providers[role].connection, role).toBeNull();
    expect(Object.fromEntries(MODEL_ROLES.map((role) => [role, providers[role].standIn]))).toEqual({
      generation: OFFLINE_MODEL,
      reflection: OFFLINE_MODEL,
      evaluation: FACTUAL_BASELINE_MODEL,
      judge: RULE_JUDGE,
      extraction: CURATOR_TABLE_ENTRY,
      chart_type: CURATOR_TYPE_TRIAGE,
    });
  });

  it('an empty key counts as none, as the config reads it', () => {
    expect(providersFor(settings, loadConfig({ OPENAI_API_KEY: '' })).generation.connection).toBeNull();
    expect(hasModelEndpoint(loadConfig({ OPENAI_API_KEY: '' }))).toBe(false);
    expect(hasModelEndpoint(loadConfig({ OPENAI_API_KEY: 'sk-test' }))).toBe(true);
  });

  it('generation and reflection ask the settings model at the settings temperature, with the settings timeout, retries and prices', () => {
    const providers = providersFor(settings, loadConfig({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'http://llm.lan/v1' }));
    for (const role of ['generation', 'reflection'] as const) {
      expect(providers[role], role).toEqual({
        role,
        connection: { apiKey: 'sk-test', baseURL: 'http://llm.lan/v1', timeoutMs: 30_000, maxRetries: 2, prices: settings.price_table },
        model: 'gpt-4.1-mini',
        temperature: 0.4,
        standIn: OFFLINE_MODEL,
      });
    }
  });

  it('evaluation names no model (each run names its own), asks at temperature 0 with its own longer timeout and attempts', () => {
    const { evaluation } = providersFor(settings, loadConfig({ OPENAI_API_KEY: 'sk-test' }));
    expect(evaluation).toEqual({
      role: 'evaluation',
      connection: { apiKey: 'sk-test', timeoutMs: EVAL_TIMEOUT_MS, maxRetries: EVAL_MAX_ATTEMPTS - 1, prices: settings.price_table },
      model: null,
      temperature: 0,
      standIn: FACTUAL_BASELINE_MODEL,
    });
    // No base URL configured: none is passed, so the SDK's default endpoint applies.
    expect(evaluation.connection && 'baseURL' in evaluation.connection).toBe(false);
  });

  it('the judge reads with the judge_model setting (GPT-4o by default, as CharXiv graded) at temperature 0 and the settings timeout; its stand-in is the relaxed-match rule', () => {
    const { judge } = providersFor(settings, loadConfig({ OPENAI_API_KEY: 'sk-test' }));
    expect(judge).toMatchObject({ role: 'judge', model: 'gpt-4o', temperature: 0, standIn: RULE_JUDGE, connection: { timeoutMs: 30_000, maxRetries: 2 } });
    const own = SettingsSchema.parse({ ...settings, judge_model: 'gpt-4.1' });
    expect(providersFor(own, loadConfig({ OPENAI_API_KEY: 'sk-test' })).judge.model).toBe('gpt-4.1');
  });

  it('extraction reads with the extraction_model setting at temperature 0, with the vision timeout and the settings retries', () => {
    const { extraction } = providersFor(SettingsSchema.parse({ ...settings, extraction_model: 'gpt-4.1' }), loadConfig({ OPENAI_API_KEY: 'sk-test' }));
    expect(extraction).toMatchObject({ role: 'extraction', model: 'gpt-4.1', temperature: 0, standIn: CURATOR_TABLE_ENTRY, connection: { timeoutMs: EVAL_TIMEOUT_MS, maxRetries: 2 } });
  });

  it('chart_type asks the configured vision model (the extraction_model setting) at temperature 0, as extraction does', () => {
    const { chart_type } = providersFor(SettingsSchema.parse({ ...settings, extraction_model: 'qwen2.5-vl-7b' }), loadConfig({ OPENAI_API_KEY: 'sk-test' }));
    expect(chart_type).toMatchObject({ role: 'chart_type', model: 'qwen2.5-vl-7b', temperature: 0, standIn: CURATOR_TYPE_TRIAGE, connection: { timeoutMs: EVAL_TIMEOUT_MS, maxRetries: 2 } });
  });

  it('settings changed since are read again: each call resolves from the snapshot it is given', () => {
    const env = loadConfig({ OPENAI_API_KEY: 'sk-test' });
    const changed = SettingsSchema.parse({ ...settings, generation_model: 'gpt-4o', max_retries: 0 });
    expect(providersFor(changed, env).generation).toMatchObject({ model: 'gpt-4o', connection: { maxRetries: 0 } });
    expect(providersFor(settings, env).generation).toMatchObject({ model: 'gpt-4.1-mini', connection: { maxRetries: 2 } });
  });
});
