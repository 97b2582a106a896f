import { importFolder } from '../../server/import/import-folder';
import type { Role } from '../../shared/domain/roles';
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIOptions } from './fake-openai';
import { MULTICHARTQA_DATA } from './multichartqa-sample';
import { startTestServer, type TestServer } from './test-server';

/**
 * Test setup for table extraction in the browser: a real server whose OpenAI endpoint is the
 * fake, the real MultiChartQA sample imported (charts known only by their images), and the
 * users asked for. Shared by the table editor's and the split extraction's e2e tests.
 */

/** The split the MultiChartQA importer writes the sample into. */
export const IMAGE_ONLY_SPLIT = 'multichartqa';

export const CURATOR = { username: 'tess', password: 'curator-pass-9' };

/** What the fake vision model reads from every image: a small table of one percentage series. */
export const EXTRACTED_TABLE = {
  title: 'Urban share',
  label_header: 'Year',
  series: [{ name: 'Urban', unit: '%' }],
  rows: [
    { label: '2000', values: [46.7] },
    { label: '2010', values: [51.6] },
  ],
};

export interface ImageOnlySplit {
  server: TestServer;
  fake: FakeOpenAI;
  /** The server first, then the fake (the server's calls to it end with it). */
  close(): Promise<void>;
}

export async function startImageOnlySplit(
  options: { fake?: FakeOpenAIOptions; users?: readonly { username: string; password: string; role: Role }[] } = {},
): Promise<ImageOnlySplit> {
  const fake = await startFakeOpenAI(options.fake);
  let server: TestServer | undefined;
  try {
    server = await startTestServer({ demo: false, config: { openaiApiKey: 'test-key', openaiBaseUrl: fake.url } });
    for (const user of options.users ?? [{ ...CURATOR, role: 'curator' as const }]) await server.createUser(user.username, user.role, user.password);
    importFolder(server.server.ctx.db, MULTICHARTQA_DATA, { format: 'multichartqa', split: IMAGE_ONLY_SPLIT });
  } catch (error) {
    // A setup that fails half-way leaves nothing listening for afterAll to miss.
    await server?.close();
    await fake.close();
    throw error;
  }
  const started = server;
  return {
    server: started,
    fake,
    async close() {
      await started.close();
      await fake.close();
    },
  };
}
