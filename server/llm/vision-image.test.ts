import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { CHARTQA_EXTRA, SEED_BENCHMARKS } from '../../test/support/paths';
import { fitWithin, prepareVisionImage } from './vision-image';

/** A real 3400×2400 Our World in Data chart from the MultiChartQA sample. */
const OWID_PNG = resolve(SEED_BENCHMARKS, 'multichartqa/data/owid_0_london-air-pollution/air-pollution-london-vs-delhi.png');
/** A real 800×557 ChartQA chart. */
const CHARTQA_PNG = resolve(CHARTQA_EXTRA, 'png/two_col_417.png');

const decode = (url: string) => Buffer.from(url.replace(/^data:image\/(png|jpeg);base64,/, ''), 'base64');

describe('fitWithin', () => {
  it('scales the longest side down to the limit and keeps the aspect', () => {
    expect(fitWithin({ width: 3400, height: 2400 }, 1568)).toEqual({ width: 1568, height: 1107 });
    expect(fitWithin({ width: 557, height: 4000 }, 1000)).toEqual({ width: 139, height: 1000 });
  });

  it('never scales up', () => {
    expect(fitWithin({ width: 800, height: 557 }, 1568)).toEqual({ width: 800, height: 557 });
  });
});

describe('prepareVisionImage', () => {
  it('gives the same bytes for the same image and settings (a prompt cache keyed on them still serves), scaling a chart once, and other bytes for other settings', async () => {
    const png = readFileSync(OWID_PNG);
    const first = prepareVisionImage(png, { maxSide: 900, detail: 'high' });
    // A copy of the bytes, not the same buffer: what a second read of the stored image gives.
    const again = prepareVisionImage(Buffer.from(png), { maxSide: 900, detail: 'high' });
    expect(again).toBe(first);
    expect((await again).url).toBe((await first).url);
    const other = await prepareVisionImage(png, { maxSide: 800, detail: 'high' });
    expect(other.size).toEqual({ width: 800, height: 565 });
    expect(other.url).not.toBe((await first).url);
  });

  it('refuses bytes that are no image, each time, by what they are', async () => {
    const junk = Buffer.from('\x89PNG\r\n\x1a\nnot really', 'latin1');
    await expect(prepareVisionImage(junk, { maxSide: 900, detail: 'high' })).rejects.toThrow();
    await expect(prepareVisionImage(junk, { maxSide: 900, detail: 'high' })).rejects.toThrow();
  });

  it('sends a large chart resized to the longest side, as a PNG of that size, with the detail asked for', async () => {
    const image = await prepareVisionImage(readFileSync(OWID_PNG), { maxSide: 1568, detail: 'high' });
    expect(image).toMatchObject({ original: { width: 3400, height: 2400 }, size: { width: 1568, height: 1107 }, detail: 'high' });
    expect(image.url).toMatch(/^data:image\/png;base64,/);
    const sent = await sharp(decode(image.url)).metadata();
    expect([sent.format, sent.width, sent.height]).toEqual(['png', 1568, 1107]);
  });

  it('sends a chart already within the limit as its stored bytes', async () => {
    const png = readFileSync(CHARTQA_PNG);
    const image = await prepareVisionImage(png, { maxSide: 1568, detail: 'auto' });
    expect(image.size).toEqual(image.original);
    expect(decode(image.url).equals(png)).toBe(true);
  });

  it('sends at most 512 px at low detail, which is all the endpoint reads', async () => {
    const image = await prepareVisionImage(readFileSync(CHARTQA_PNG), { maxSide: 1568, detail: 'low' });
    expect(image.size).toEqual({ width: 512, height: 356 });
    expect((await sharp(decode(image.url)).metadata()).width).toBe(512);
  });

  it('keeps a JPEG a JPEG', async () => {
    const jpeg = await sharp({ create: { width: 2000, height: 1000, channels: 3, background: '#336699' } }).jpeg().toBuffer();
    const image = await prepareVisionImage(jpeg, { maxSide: 1000, detail: 'high' });
    expect(image.url).toMatch(/^data:image\/jpeg;base64,/);
    const sent = await sharp(decode(image.url)).metadata();
    expect([sent.format, sent.width, sent.height]).toEqual(['jpeg', 1000, 500]);
  });
});
