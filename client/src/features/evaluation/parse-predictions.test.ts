import { describe, expect, it } from 'vitest';
import { parsePredictionsFile } from './parse-predictions';

describe('reading a predictions file before upload', () => {
  it('accepts `hqa eval` output, null predictions included', () => {
    const text = JSON.stringify([
      { id: 'chq-000001', prediction: '42', raw: 'Answer: 42' },
      { id: 'chq-000002', prediction: null, raw: 'I cannot tell.' },
      { id: 'chq-000003', prediction: 'Yes' },
    ]);
    const parsed = parsePredictionsFile('preds.json', text);
    expect(parsed).toEqual({
      ok: true,
      predictions: [
        { id: 'chq-000001', prediction: '42', raw: 'Answer: 42' },
        { id: 'chq-000002', prediction: null, raw: 'I cannot tell.' },
        { id: 'chq-000003', prediction: 'Yes' },
      ],
    });
  });

  it('names the file, the failing index and the field', () => {
    const text = JSON.stringify([{ id: 'chq-000001', prediction: '1' }, { id: 'chq-000002', prediction: '2' }, { id: 7, prediction: '3' }]);
    const parsed = parsePredictionsFile('preds.json', text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toMatch(/^preds\.json: \[2\]\.id: /);
  });

  it('says what is wrong with a file that is not JSON, not an array, or empty', () => {
    const notJson = parsePredictionsFile('a.json', '{ nope');
    const notArray = parsePredictionsFile('b.json', '{"predictions": []}');
    const empty = parsePredictionsFile('c.json', '[]');
    expect(!notJson.ok && notJson.message).toMatch(/^a\.json: not valid JSON/);
    expect(!notArray.ok && notArray.message).toMatch(/^b\.json: document: .*expected the array/);
    expect(!empty.ok && empty.message).toBe('c.json: document: holds no predictions');
  });
});
