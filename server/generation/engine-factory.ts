import type { AppContext } from '../app-context';
import { getSettings } from '../settings/settings-queries';
import type { EngineFactory } from './run-executor';
import { createOfflineEngine } from './offline-engine';
import { createOpenAiEngine } from './openai-engine';

/** The engine a run asked for: the offline rule engine, or the configured OpenAI-compatible endpoint. */
export function engineFactory(ctx: AppContext): EngineFactory {
  return (run) => {
    if (run.engine === 'offline') return createOfflineEngine();
    const apiKey = ctx.config.openaiApiKey;
    if (!apiKey) throw new Error(`run ${run.id} uses the openai engine but OPENAI_API_KEY is not set`);
    const settings = getSettings(ctx.db);
    return createOpenAiEngine({
      db: ctx.db,
      apiKey,
      ...(ctx.config.openaiBaseUrl ? { baseURL: ctx.config.openaiBaseUrl } : {}),
      model: run.model,
      temperature: run.config.temperature ?? settings.temperature,
      settings,
    });
  };
}
