import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import type { RecordedRequest } from './fake-openai-request';
import { errorBody, sendJson } from './fake-openai-response';

/**
 * The fake OpenAI server's Files and Batch API: `POST /v1/files` (multipart upload),
 * `GET /v1/files/:id` and `/content`, `POST /v1/batches`, `GET /v1/batches/:id`,
 * `POST /v1/batches/:id/cancel`. A batch moves on with each retrieve and completes after
 * `pollsToComplete` of them, when every line is answered by the fake's own chat-completions
 * handler (so scripted replies apply, in input order). Result lines come back shuffled, as a
 * real provider's may, and lines can be left out of both files on purpose.
 */

/** What a batch line's request got: its HTTP status and JSON body, or no response at all (status 0). */
export type LineAnswer = (body: unknown) => Promise<{ status: number; body: unknown }>;

export interface FakeBatchOptions {
  /** Retrieves of a batch before it completes; the retrieve that reaches it answers the lines. Default 2. */
  pollsToComplete?: number;
  /** Results in a shuffled order (default), so a client must match them by `custom_id`. */
  shuffle?: boolean;
}

interface StoredFile {
  id: string;
  filename: string;
  purpose: string;
  content: string;
  created_at: number;
}

interface StoredBatch {
  id: string;
  input_file_id: string;
  endpoint: string;
  completion_window: string;
  metadata: Record<string, string> | null;
  status: 'validating' | 'in_progress' | 'completed' | 'cancelled' | 'failed';
  polls: number;
  total: number;
  completed: number;
  failed: number;
  output_file_id: string | null;
  error_file_id: string | null;
  created_at: number;
}

export interface FakeBatchLine {
  batch_id: string;
  custom_id: string;
  body: unknown;
}

export interface FakeBatches {
  /** Batches created so far (a resumed command must not add one). */
  created(): number;
  /** Every input line of every batch, in upload order. */
  readonly lines: FakeBatchLine[];
  /** Leaves these custom_ids out of both result files: lines a provider lost. */
  omit(...customIds: string[]): void;
  configure(options: FakeBatchOptions): void;
  /** Answers the request if it is a Files or Batch API one; false otherwise. */
  route(recorded: RecordedRequest, res: ServerResponse): Promise<boolean>;
}

const InputLineSchema = z.object({ custom_id: z.string().min(1), method: z.literal('POST'), url: z.string(), body: z.record(z.string(), z.unknown()) });
const CreateBatchSchema = z.object({
  input_file_id: z.string(),
  endpoint: z.literal('/v1/chat/completions'),
  completion_window: z.literal('24h'),
  metadata: z.record(z.string(), z.string()).nullish(),
});

/** The parts of a `multipart/form-data` body (the SDK's upload), by field name. */
function multipartFields(recorded: RecordedRequest): Map<string, { filename: string | null; value: string }> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(recorded.headers['content-type'] ?? '');
  const fields = new Map<string, { filename: string | null; value: string }>();
  const marker = boundary?.[1] ?? boundary?.[2];
  if (!marker) return fields;
  for (const part of recorded.rawBody.split(`--${marker}`)) {
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const head = part.slice(0, split);
    const name = /name="([^"]*)"/i.exec(head)?.[1];
    if (!name) continue;
    const filename = /filename="([^"]*)"/i.exec(head)?.[1] ?? null;
    fields.set(name, { filename, value: part.slice(split + 4).replace(/\r\n$/, '') });
  }
  return fields;
}

/** A fixed shuffle (a small linear congruential generator): the same order every run. */
function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  let seed = 7;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  // A reversal too, so even two lines never come back in input order.
  return out.reverse();
}

export function createFakeBatches(answer: LineAnswer, initial: FakeBatchOptions = {}): FakeBatches {
  const files = new Map<string, StoredFile>();
  const batches = new Map<string, StoredBatch>();
  const lines: FakeBatchLine[] = [];
  const omitted = new Set<string>();
  let options = { pollsToComplete: 2, shuffle: true, ...initial };
  let ids = 0;
  const nextId = (prefix: string) => `${prefix}-fake-${++ids}`;
  const now = () => Math.floor(Date.now() / 1000);

  const fileObject = (file: StoredFile) => ({ id: file.id, object: 'file', bytes: Buffer.byteLength(file.content), created_at: file.created_at, filename: file.filename, purpose: file.purpose, status: 'processed' });
  const batchObject = (batch: StoredBatch) => ({
    id: batch.id,
    object: 'batch',
    endpoint: batch.endpoint,
    errors: null,
    input_file_id: batch.input_file_id,
    completion_window: batch.completion_window,
    status: batch.status,
    output_file_id: batch.output_file_id,
    error_file_id: batch.error_file_id,
    created_at: batch.created_at,
    request_counts: { total: batch.total, completed: batch.completed, failed: batch.failed },
    metadata: batch.metadata,
  });

  function storeFile(filename: string, purpose: string, content: string): StoredFile {
    const file = { id: nextId('file'), filename, purpose, content, created_at: now() };
    files.set(file.id, file);
    return file;
  }

  /** Answers every line of the batch, as the provider does by the end of its window. */
  async function complete(batch: StoredBatch): Promise<void> {
    const input = files.get(batch.input_file_id)?.content ?? '';
    const output: unknown[] = [];
    const errors: unknown[] = [];
    let request = 0;
    for (const text of input.split('\n')) {
      if (text.trim() === '') continue;
      const line = InputLineSchema.parse(JSON.parse(text));
      const result = line.url === '/v1/chat/completions' ? await answer(line.body) : { status: 404, body: errorBody(`Invalid URL (POST ${line.url})`, 'invalid_request_error', null) };
      if (omitted.has(line.custom_id)) continue;
      request += 1;
      const id = `batch_req_fake_${batch.id}_${request}`;
      if (result.status === 0) errors.push({ id, custom_id: line.custom_id, response: null, error: { code: 'server_error', message: 'the request got no response' } });
      else if (result.status >= 200 && result.status < 300) output.push({ id, custom_id: line.custom_id, response: { status_code: result.status, request_id: `req_${id}`, body: result.body }, error: null });
      else errors.push({ id, custom_id: line.custom_id, response: { status_code: result.status, request_id: `req_${id}`, body: result.body }, error: null });
    }
    const order = <T,>(items: T[]) => (options.shuffle ? shuffled(items) : items);
    const jsonl = (items: unknown[]) => order(items).map((item) => `${JSON.stringify(item)}\n`).join('');
    if (output.length > 0) batch.output_file_id = storeFile(`${batch.id}_output.jsonl`, 'batch_output', jsonl(output)).id;
    if (errors.length > 0) batch.error_file_id = storeFile(`${batch.id}_error.jsonl`, 'batch_output', jsonl(errors)).id;
    batch.completed = output.length;
    batch.failed = errors.length;
    batch.status = 'completed';
  }

  async function route(recorded: RecordedRequest, res: ServerResponse): Promise<boolean> {
    const { method, path } = recorded;
    if (method === 'POST' && path === '/v1/files') {
      const fields = multipartFields(recorded);
      const file = fields.get('file');
      const purpose = fields.get('purpose')?.value;
      if (!file || !purpose) {
        sendJson(res, 400, errorBody("Missing required parameter: 'file' and 'purpose'.", 'invalid_request_error', null));
        return true;
      }
      sendJson(res, 200, fileObject(storeFile(file.filename ?? 'upload', purpose, file.value)));
      return true;
    }
    const fileMatch = /^\/v1\/files\/([^/]+)(\/content)?$/.exec(path);
    if (method === 'GET' && fileMatch) {
      const file = files.get(decodeURIComponent(fileMatch[1] ?? ''));
      if (!file) sendJson(res, 404, errorBody(`No such File object: ${fileMatch[1]}`, 'invalid_request_error', null));
      else if (fileMatch[2]) {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': Buffer.byteLength(file.content) });
        res.end(file.content);
      } else sendJson(res, 200, fileObject(file));
      return true;
    }
    if (method === 'POST' && path === '/v1/batches') {
      const parsed = CreateBatchSchema.safeParse(recorded.body);
      const input = parsed.success ? files.get(parsed.data.input_file_id) : undefined;
      if (!parsed.success || !input) {
        sendJson(res, 400, errorBody(parsed.success ? `No such File object: ${parsed.data.input_file_id}` : 'Invalid batch request', 'invalid_request_error', null));
        return true;
      }
      const id = nextId('batch');
      for (const text of input.content.split('\n')) {
        if (text.trim() === '') continue;
        const line = InputLineSchema.parse(JSON.parse(text));
        lines.push({ batch_id: id, custom_id: line.custom_id, body: line.body });
      }
      const batch: StoredBatch = {
        id,
        input_file_id: input.id,
        endpoint: parsed.data.endpoint,
        completion_window: parsed.data.completion_window,
        metadata: parsed.data.metadata ?? null,
        status: 'validating',
        polls: 0,
        total: lines.filter((line) => line.batch_id === id).length,
        completed: 0,
        failed: 0,
        output_file_id: null,
        error_file_id: null,
        created_at: now(),
      };
      batches.set(id, batch);
      sendJson(res, 200, batchObject(batch));
      return true;
    }
    const batchMatch = /^\/v1\/batches\/([^/]+)(\/cancel)?$/.exec(path);
    if (batchMatch) {
      const batch = batches.get(decodeURIComponent(batchMatch[1] ?? ''));
      if (!batch) {
        sendJson(res, 404, errorBody(`No batch found with id '${batchMatch[1]}'.`, 'invalid_request_error', null));
        return true;
      }
      if (method === 'POST' && batchMatch[2]) {
        if (batch.status === 'validating' || batch.status === 'in_progress') batch.status = 'cancelled';
      } else if (method === 'GET' && !batchMatch[2] && (batch.status === 'validating' || batch.status === 'in_progress')) {
        batch.polls += 1;
        if (batch.polls >= options.pollsToComplete) await complete(batch);
        else {
          batch.status = 'in_progress';
          batch.completed = Math.floor((batch.total * batch.polls) / options.pollsToComplete);
        }
      }
      sendJson(res, 200, batchObject(batch));
      return true;
    }
    return false;
  }

  return {
    created: () => batches.size,
    lines,
    omit: (...customIds) => {
      for (const id of customIds) omitted.add(id);
    },
    configure: (next) => {
      options = { ...options, ...next };
    },
    route,
  };
}
