import { expect } from 'vitest';
import { RunDetailResponseSchema, RunResponseSchema, runsApi } from '../../shared/api/runs';
import type { z } from 'zod';
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIOptions } from './fake-openai';
import { TestClient } from './http-client';
import { startTestServer, type TestServer } from './test-server';

/**
 * Test setup for generation runs: a real server (the demo split and the seed pool of a first
 * start) whose OpenAI endpoint is the fake, and a curator signed in to start runs. Shared by the
 * generation and group-generation integration tests.
 */

export type RunDetail = z.infer<typeof RunDetailResponseSchema>;

export interface GenerationServer {
  server: TestServer;
  fake: FakeOpenAI;
  curator: TestClient;
  /** Creates the run as the curator (201 expected), runs it on the server's executor to its end, and reads it back with its errors. */
  runToEnd(config: Record<string, unknown>): Promise<RunDetail>;
  /** The server first, then the fake. */
  close(): Promise<void>;
}

export async function startGenerationServer(fakeOptions: FakeOpenAIOptions = {}): Promise<GenerationServer> {
  const fake = await startFakeOpenAI(fakeOptions);
  let server: TestServer | undefined;
  try {
    server = await startTestServer({ config: { openaiApiKey: 'test-key', openaiBaseUrl: fake.url } });
    await server.createUser('cora', 'curator', 'curator-pass-1');
  } catch (error) {
    // A setup that fails half-way leaves nothing listening for afterAll to miss.
    await server?.close();
    await fake.close();
    throw error;
  }
  const started = server;
  const curator = new TestClient(started.url);
  await curator.login('cora', 'curator-pass-1');
  return {
    server: started,
    fake,
    curator,
    async runToEnd(config) {
      const res = await curator.send(runsApi.create, { body: config });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const { run } = RunResponseSchema.parse(res.body);
      await started.server.executor.start(run.id);
      return await curator.call(runsApi.get, { params: { id: run.id } });
    },
    async close() {
      await started.close();
      await fake.close();
    },
  };
}
