import type { AppContext } from '../app-context';
import { providersFor } from '../llm/model-roles';
import { getSettings } from '../settings/settings-queries';
import type { EngineFactory } from './run-executor';
import { createOfflineEngine } from './offline-engine';
import { createOpenAiEngine } from './openai-engine';

/** The engine a run asked for: the offline rule engine (the generation role's stand-in), or the generation role's endpoint. */
export function engineFactory(ctx: AppContext): EngineFactory {
  return (run) => {
    if (run.engine === 'offline') return createOfflineEngine();
    const settings = getSettings(ctx.db);
    const generation = providersFor(settings, ctx.config).generation;
    if (!generation.connection) throw new Error(`run ${run.id} uses the openai engine but OPENAI_API_KEY is not set`);
    return createOpenAiEngine({
      db: ctx.db,
      connection: generation.connection,
      // The run's own: fixed when it was made (its config, or the settings' model then).
      model: run.model,
      temperature: run.config.temperature ?? generation.temperature,
      settings,
    });
  };
}
