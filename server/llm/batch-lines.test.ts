import { describe, expect, it } from 'vitest';
import { batchInputLine, mapBatchResults, toJsonl } from './batch-lines';
import { chatRequest } from './provider';

const completion = (content: string, usage = { prompt_tokens: 10, completion_tokens: 3 }) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
});
const ok = (customId: string, content: string) => ({ id: `r-${customId}`, custom_id: customId, response: { status_code: 200, request_id: `q-${customId}`, body: completion(content) }, error: null });

describe('batch request lines', () => {
  it('carry exactly the body a call on its own sends, model included', () => {
    const body = { temperature: 0, messages: [{ role: 'user' as const, content: 'Which bar is tallest?' }] };
    const line = batchInputLine('chq-000001', 'vision-1', body);
    expect(line).toEqual({ custom_id: 'chq-000001', method: 'POST', url: '/v1/chat/completions', body: chatRequest('vision-1', body) });
    expect(line.body).toEqual({ ...body, model: 'vision-1' });
    expect(toJsonl([line, line]).split('\n')).toHaveLength(3);
  });
});

describe('mapBatchResults', () => {
  it('matches results to requests by custom_id, whatever their order, and names failed, missing and unknown lines', () => {
    const output = toJsonl([ok('c', 'Answer: 3'), ok('a', 'Answer: 1'), ok('zz', 'Answer: 9')]);
    // OpenAI's error file: the request's own HTTP error; vLLM's: a status with no body and an error string.
    const errors = toJsonl([
      { id: 'r-b', custom_id: 'b', response: { status_code: 400, request_id: 'q-b', body: { error: { message: 'bad image', code: 'invalid_image' } } }, error: null },
      { id: 'r-d', custom_id: 'd', response: { status_code: 400, request_id: 'q-d' }, error: 'prompt too long' },
    ]);
    const mapped = mapBatchResults(['a', 'b', 'c', 'd', 'e'], [
      { source: 'out.jsonl', text: output },
      { source: 'err.jsonl', text: errors },
    ]);
    expect(mapped.results.get('a')).toMatchObject({ ok: true, content: 'Answer: 1', tokens: { prompt_tokens: 10, completion_tokens: 3 } });
    expect(mapped.results.get('c')).toMatchObject({ ok: true, content: 'Answer: 3' });
    expect(mapped.results.get('b')).toEqual({ ok: false, error: 'HTTP 400: invalid_image: bad image' });
    expect(mapped.results.get('d')).toEqual({ ok: false, error: 'HTTP 400: prompt too long' });
    expect(mapped.results.get('e')).toEqual({ ok: false, error: 'missing from the batch results (out.jsonl, err.jsonl)' });
    expect(mapped.missing).toEqual(['e']);
    expect(mapped.unknown).toEqual(['zz']);
  });

  it("reads the cached prompt tokens OpenAI's bodies report, and 0 where a body (vLLM's) has no details", () => {
    const cached = { ...completion('Answer: 1', { prompt_tokens: 2000, completion_tokens: 3 }), usage: { prompt_tokens: 2000, completion_tokens: 3, total_tokens: 2003, prompt_tokens_details: { cached_tokens: 1536, audio_tokens: 0 } } };
    const text = toJsonl([{ id: 'r-a', custom_id: 'a', response: { status_code: 200, request_id: 'q-a', body: cached }, error: null }, ok('b', 'Answer: 2')]);
    const mapped = mapBatchResults(['a', 'b'], [{ source: 'out.jsonl', text }]);
    expect(mapped.results.get('a')).toMatchObject({ ok: true, tokens: { prompt_tokens: 2000, completion_tokens: 3, cached_tokens: 1536 } });
    expect(mapped.results.get('b')).toMatchObject({ ok: true, tokens: { prompt_tokens: 10, completion_tokens: 3, cached_tokens: 0 } });
  });

  it('keeps a success over a failure of the same request, and reads a line without a response as failed', () => {
    const text = toJsonl([ok('a', 'Answer: 1'), { id: 'x', custom_id: 'a', response: null, error: { code: 'batch_expired', message: 'expired' } }, { id: 'y', custom_id: 'b', response: null, error: { code: 'batch_expired', message: 'expired' } }]);
    const mapped = mapBatchResults(['a', 'b'], [{ source: 'f', text }]);
    expect(mapped.results.get('a')?.ok).toBe(true);
    expect(mapped.results.get('b')).toEqual({ ok: false, error: 'batch_expired: expired' });
  });

  it('refuses a line that is no result line, naming file and line', () => {
    expect(() => mapBatchResults(['a'], [{ source: 'out.jsonl', text: `${JSON.stringify(ok('a', 'x'))}\n{oops\n` }])).toThrow(/out\.jsonl: line 2: not JSON/);
    expect(() => mapBatchResults(['a'], [{ source: 'out.jsonl', text: '{"id":"r"}\n' }])).toThrow(/out\.jsonl: line 1: custom_id/);
  });

  it('reads a 200 whose body is no chat completion as a failure, and a refusal as one', () => {
    const text = toJsonl([
      { id: 'r', custom_id: 'a', response: { status_code: 200, request_id: 'q', body: { object: 'list' } }, error: null },
      { id: 's', custom_id: 'b', response: { status_code: 200, request_id: 'q', body: { choices: [{ message: { content: null, refusal: 'I cannot' }, finish_reason: 'stop' }] } }, error: null },
    ]);
    const mapped = mapBatchResults(['a', 'b'], [{ source: 'f', text }]);
    expect(mapped.results.get('a')).toEqual({ ok: false, error: 'HTTP 200: the response body is no chat completion (choices)' });
    expect(mapped.results.get('b')).toMatchObject({ ok: true, content: null, refusal: 'I cannot' });
  });

  describe('reads every error-line shape the references write, each failing its own request with the reason', () => {
    const LONG = "This model's maximum context length is 4096 tokens. However, you requested 5120 tokens in the messages. Please reduce the length of the messages.";
    // vllm/entrypoints/openai/run_batch.py: BatchResponseData(status_code, request_id, body=None) for a failed request.
    const vllmFailed = { status_code: 400, request_id: 'vllm-batch-1', body: null };
    const vectors: [name: string, line: Record<string, unknown>, reason: string][] = [
      // OpenAI's error file: a request that never ran (BatchRequestOutputError: code, message).
      ['OpenAI error file', { id: 'batch_req_1', custom_id: 'x', response: null, error: { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' } }, 'batch_expired: This request could not be executed before the completion window expired.'],
      // OpenAI: the request ran and its HTTP error is the response (body: { error: { message, type, param, code } }).
      ['OpenAI HTTP error', { id: 'batch_req_2', custom_id: 'x', response: { status_code: 400, request_id: 'req_2', body: { error: { message: LONG, type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } } }, error: null }, `HTTP 400: context_length_exceeded: ${LONG}`],
      // run_batch.py make_error_request_output: error=str(e).
      ['vLLM error string', { id: 'vllm-3', custom_id: 'x', response: vllmFailed, error: 'Request must not be sent in stream mode' }, 'HTTP 400: Request must not be sent in stream mode'],
      // run_batch.py, an ErrorResponse from the serving engine: error=response, ErrorResponse(error=ErrorInfo(message, type, param, code: int)).
      ['current vLLM ErrorResponse', { id: 'vllm-4', custom_id: 'x', response: vllmFailed, error: { error: { message: LONG, type: 'BadRequestError', param: null, code: 400 } } }, `HTTP 400: ${LONG}`],
      ['current vLLM ErrorResponse as the body', { id: 'vllm-5', custom_id: 'x', response: { status_code: 400, request_id: 'vllm-batch-5', body: { error: { message: LONG, type: 'BadRequestError', param: null, code: 400 } } }, error: null }, `HTTP 400: ${LONG}`],
      // Older vLLM: ErrorResponse(object="error", message, type, param, code: int), its fields not wrapped in `error`.
      ['older vLLM ErrorResponse', { id: 'vllm-6', custom_id: 'x', response: vllmFailed, error: { object: 'error', message: LONG, type: 'BadRequestError', param: null, code: 400 } }, `HTTP 400: ${LONG}`],
      ['older vLLM ErrorResponse as the body', { id: 'vllm-7', custom_id: 'x', response: { status_code: 400, request_id: 'vllm-batch-7', body: { object: 'error', message: LONG, type: 'BadRequestError', param: null, code: 400 } }, error: null }, `HTTP 400: ${LONG}`],
      // No response at all: vLLM's integer code is the HTTP status.
      ['older vLLM ErrorResponse without a response', { id: 'vllm-8', custom_id: 'x', response: null, error: { object: 'error', message: 'The model `m` does not exist.', type: 'NotFoundError', param: null, code: 404 } }, 'HTTP 404: The model `m` does not exist.'],
      // An integer code other than the status is said; an error with no code and no message is named by its type.
      ['integer code unlike the status', { id: 'vllm-9', custom_id: 'x', response: { status_code: 500, request_id: 'r', body: null }, error: { error: { message: 'engine dead', type: 'InternalServerError', code: 503 } } }, 'HTTP 500: 503: engine dead'],
      ['type only', { id: 'vllm-10', custom_id: 'x', response: vllmFailed, error: { error: { message: '', type: 'BadRequestError', code: 400 } } }, 'HTTP 400: BadRequestError'],
      ['an error in no known shape', { id: 'r-11', custom_id: 'x', response: vllmFailed, error: [1, 2] }, 'HTTP 400: an error in no known shape: [1,2]'],
      ['a failed status saying nothing', { id: 'r-12', custom_id: 'x', response: vllmFailed, error: null }, 'HTTP 400: no reason given'],
    ];
    it.each(vectors)('%s', (_name, line, reason) => {
      const mapped = mapBatchResults(['x'], [{ source: 'out.jsonl', text: toJsonl([line]) }]);
      expect(mapped.results.get('x')).toEqual({ ok: false, error: reason });
    });

    it('stores the good lines beside any of them, and fails a line in no known shape alone, naming file and line', () => {
      const lines = [ok('a', 'Answer: 1'), ...vectors.map(([, line], index) => ({ ...line, custom_id: `e${index}` })), { id: 'r', custom_id: 'odd', response: { status_code: '200' } }, ok('b', 'Answer: 2')];
      const ids = ['a', 'b', 'odd', ...vectors.map((_, index) => `e${index}`)];
      const mapped = mapBatchResults(ids, [{ source: 'out.jsonl', text: toJsonl(lines) }]);
      expect(mapped.results.get('a')).toMatchObject({ ok: true, content: 'Answer: 1' });
      expect(mapped.results.get('b')).toMatchObject({ ok: true, content: 'Answer: 2' });
      vectors.forEach(([, , reason], index) => expect(mapped.results.get(`e${index}`)).toEqual({ ok: false, error: reason }));
      expect(mapped.results.get('odd')).toEqual({ ok: false, error: `out.jsonl: line ${vectors.length + 2} is no batch result line (response.status_code: Invalid input: expected number, received string)` });
      expect(mapped.missing).toEqual([]);
    });
  });
});
