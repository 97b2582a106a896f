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
});
