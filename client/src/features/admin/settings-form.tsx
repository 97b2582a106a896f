import { useState, type FormEvent } from 'react';
import { UpdateSettingsRequestSchema, type UpdateSettingsRequest } from '@shared/api/settings';
import { CONSENSUS_RULES, ConsensusRuleSchema, type ConsensusRule } from '@shared/domain/review';
import { ImageDetailSchema, type ImageDetail, type Settings } from '@shared/settings';
import { errorMessage } from '../../api/http';
import { Field } from '../../ui/field';
import { fieldErrorsOf, parseForm, serverFieldMessage, serverFieldOf, type FieldErrors } from '../../ui/form-errors';
import { useSettings, useUpdateSettings } from './settings-api';

/** The settings edited as plain numbers, each with its label and input step. */
const NUMBER_FIELDS = [
  { key: 'temperature', label: 'Temperature', step: '0.1' },
  { key: 'seed_sample_count', label: 'Seed samples per call', step: '1' },
  { key: 'machine_sample_count', label: 'Machine samples per call', step: '1' },
  { key: 'rouge_threshold', label: 'ROUGE-L duplicate threshold', step: '0.05' },
  { key: 'proposals_per_call', label: 'Proposals per call', step: '1' },
  { key: 'request_timeout_ms', label: 'Request timeout (ms)', step: '1000' },
  { key: 'max_retries', label: 'Max retries', step: '1' },
  { key: 'pause_after_transport_failures', label: 'Pause a run after endpoint failures in a row', step: '1' },
] as const;

/** Review settings edited as numbers: how many reviews decide an item, how long a claim lasts. */
const REVIEW_NUMBER_FIELDS = [
  {
    key: 'reviews_per_item',
    label: 'Reviews per item (k)',
    step: '1',
    hint: 'Lowering k decides at once every item in review whose standing reviews reach it, by the consensus rule, and ends the leases on those items (their reviewers are told why). Raising k leaves decided items decided; items in review wait for more reviews.',
  },
  { key: 'lease_seconds', label: 'Lease length (seconds)', step: '30' },
  // Calibration: the chance (0–1) a claim serves a gold item, and the agreement under which Stats flags a reviewer.
  { key: 'gold_share', label: 'Gold share of each queue', step: '0.05' },
  { key: 'gold_agreement_threshold', label: 'Gold agreement threshold', step: '0.05' },
] as const;

/** Benchmark validity: an assumption that leaves the answer as it was measures nothing, unless kept as a control. */
const CONTROL_SHARE_FIELD = {
  key: 'unchanged_control_share',
  label: 'Unchanged-answer control share',
  step: '0.05',
  hint: 'Share (0–1) of generated items made as controls, whose assumption leaves the answer unchanged on purpose (marked in the export); other unchanged-answer items are not stored.',
} as const;

/** Checks: how far an edit may move a value before the item is an implausible premise. */
const CHANGE_SHARE_FIELD = {
  key: 'max_change_share',
  label: 'Largest plausible change',
  step: '0.05',
  hint: 'Share (0.1–0.99): an edit may cut a value by at most this much, or multiply it by at most 1 / (1 − share) (a share may take more points within (1 − share) of its column\'s range). 0.5: halved to doubled.',
} as const;

/** Sessions: how long an unused one lasts (the absolute life of 7 days is not a setting). */
const SESSION_IDLE_FIELD = {
  key: 'session_idle_minutes',
  label: 'Session idle timeout (minutes)',
  step: '1',
  hint: 'A session unused this long ends, and its user logs in again (5 minutes to 7 days). Every session ends 7 days after login, however busy.',
} as const;

/** Browser uploads: what one zip may unpack to (checked before unpacking and while it is written). */
const UPLOAD_NUMBER_FIELDS = [
  { key: 'upload_max_unpacked_mb', label: 'Upload: most unpacked (MiB)', step: '1', hint: 'A zip whose files come to more is refused; lowered to half the free disk where uploads are unpacked.' },
  { key: 'upload_max_ratio', label: 'Upload: most unpacked per zip size (times)', step: '1', hint: 'Real splits unpack to 1–17 times their zip; a zip bomb to a thousand.' },
  { key: 'upload_max_entries', label: 'Upload: most files in a zip', step: '1000', hint: 'A ChartQA split has three files per chart.' },
] as const;

/** Vision requests: the size images are sent at (server/llm/vision-image.ts). */
const VISION_SIDE_FIELD = {
  key: 'vision_max_side',
  label: 'Vision image: longest side (px)',
  step: '1',
  hint: 'Chart images larger than this are scaled down (never up) before extraction and chart-type requests: the endpoint bills the pixels it is sent. 1568 keeps a 30-row chart legible.',
} as const;

const DETAIL_LABELS: Record<ImageDetail, string> = {
  high: 'High: 512-px tiles of the whole image (small print legible)',
  low: 'Low: one 512-px copy, a flat 85 tokens on OpenAI models',
  auto: 'Auto: the endpoint chooses',
};

const ALL_NUMBER_FIELDS = [...NUMBER_FIELDS, VISION_SIDE_FIELD, CONTROL_SHARE_FIELD, CHANGE_SHARE_FIELD, ...REVIEW_NUMBER_FIELDS, SESSION_IDLE_FIELD, ...UPLOAD_NUMBER_FIELDS];

type NumberKey = (typeof ALL_NUMBER_FIELDS)[number]['key'];

const CONSENSUS_LABELS: Record<ConsensusRule, string> = {
  unanimous: 'Unanimous: all k agree, any split goes to adjudication',
  majority: 'Majority: the larger side wins, a tie goes to adjudication',
};

/** `cached`: the price of prompt tokens an endpoint's cache served; blank means the input price. */
type PriceRow = { model: string; input: string; cached: string; output: string };

/** What the form holds: numbers as typed, so a half-typed value is not lost. */
type Draft = {
  generation_model: string;
  judge_model: string;
  extraction_model: string;
  vision_detail: ImageDetail;
  consensus_rule: ConsensusRule;
  keep_items_with_errors: boolean;
  prices: PriceRow[];
} & Record<NumberKey, string>;

function toDraft(settings: Settings): Draft {
  const numbers = Object.fromEntries(ALL_NUMBER_FIELDS.map(({ key }) => [key, String(settings[key])])) as Record<NumberKey, string>;
  const prices = Object.entries(settings.price_table).map(([model, price]) => ({
    model,
    input: String(price.input_per_mtok),
    cached: price.cached_input_per_mtok === undefined ? '' : String(price.cached_input_per_mtok),
    output: String(price.output_per_mtok),
  }));
  return {
    generation_model: settings.generation_model,
    judge_model: settings.judge_model,
    extraction_model: settings.extraction_model,
    vision_detail: settings.vision_detail,
    consensus_rule: settings.consensus_rule,
    keep_items_with_errors: settings.keep_items_with_errors,
    prices,
    ...numbers,
  };
}

/** An empty box is not zero: it fails validation instead. */
function numberOf(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}

/** The settings the draft describes, keeping only the keys that differ from `saved`. */
function changedKeys(draft: Draft, saved: Settings): Record<string, unknown> {
  const next: Record<string, unknown> = {
    generation_model: draft.generation_model.trim(),
    judge_model: draft.judge_model.trim(),
    extraction_model: draft.extraction_model.trim(),
    vision_detail: draft.vision_detail,
    consensus_rule: draft.consensus_rule,
    keep_items_with_errors: draft.keep_items_with_errors,
  };
  for (const { key } of ALL_NUMBER_FIELDS) next[key] = numberOf(draft[key]);
  next.price_table = Object.fromEntries(
    draft.prices.map((row) => [
      row.model.trim(),
      {
        input_per_mtok: numberOf(row.input),
        // Blank is no cached price (cached tokens then cost the input price), not a price of 0.
        ...(row.cached.trim() === '' ? {} : { cached_input_per_mtok: numberOf(row.cached) }),
        output_per_mtok: numberOf(row.output),
      },
    ]),
  );
  return Object.fromEntries(
    Object.entries(next).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(saved[key as keyof Settings])),
  );
}

/** Client-side checks the schema cannot make on the rows: every model named once. */
function priceRowsError(prices: PriceRow[]): string | undefined {
  const models = prices.map((row) => row.model.trim());
  if (models.some((model) => model === '')) return 'Every price row needs a model name.';
  if (new Set(models).size !== models.length) return 'Each model may appear only once.';
  return undefined;
}

function PriceTable({ rows, onChange, error }: { rows: PriceRow[]; onChange: (rows: PriceRow[]) => void; error?: string }) {
  const setRow = (index: number, change: Partial<PriceRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  const columns = [
    { key: 'model', label: 'Model', type: 'text' },
    { key: 'input', label: 'Input $/Mtok', type: 'number' },
    { key: 'cached', label: 'Cached input $/Mtok', type: 'number' },
    { key: 'output', label: 'Output $/Mtok', type: 'number' },
  ] as const;
  return (
    <fieldset className="price-table" data-testid="price-table" aria-invalid={error ? true : undefined}>
      <legend>Price table</legend>
      <p className="field-hint">
        Cached input: what prompt tokens cost when the endpoint serves them from its prompt cache (OpenAI bills them lower). Blank: they cost the input price.
      </p>
      <table className="data-grid">
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.key} scope="col">
                {column.label}
              </th>
            ))}
            <th scope="col">
              <span className="sr-only">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={index}>
              {columns.map((column) => (
                <td key={column.key}>
                  <Field label={`${column.label}, row ${index + 1}`} hiddenLabel>
                    {(control) => (
                      <input
                        {...control}
                        type={column.type}
                        step={column.type === 'number' ? 'any' : undefined}
                        min={column.type === 'number' ? 0 : undefined}
                        value={row[column.key]}
                        onChange={(event) => setRow(index, { [column.key]: event.target.value })}
                      />
                    )}
                  </Field>
                </td>
              ))}
              <td>
                <button type="button" className="link-button" onClick={() => onChange(rows.filter((_, i) => i !== index))}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" onClick={() => onChange([...rows, { model: '', input: '0', cached: '', output: '0' }])}>
        Add model
      </button>
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </fieldset>
  );
}

function SettingsEditor({ settings }: { settings: Settings }) {
  const update = useUpdateSettings();
  const [draft, setDraft] = useState<Draft>(() => toDraft(settings));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [notice, setNotice] = useState<string | null>(null);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((current) => ({ ...current, [key]: value }));
    setNotice(null);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    update.reset();
    setNotice(null);
    const rowsError = priceRowsError(draft.prices);
    const changes = changedKeys(draft, settings);
    const parsed = parseForm(UpdateSettingsRequestSchema, changes);
    const found: FieldErrors = parsed.success ? {} : fieldErrorsOf(parsed.error);
    if (rowsError) found.price_table = rowsError;
    setErrors(found);
    if (!parsed.success || rowsError) return;
    if (Object.keys(changes).length === 0) {
      setNotice('Nothing changed.');
      return;
    }
    // Send the keys as typed, not the parsed data: parsing fills defaults for keys left out.
    update.mutate(changes as UpdateSettingsRequest, {
      onSuccess: (response) => {
        setDraft(toDraft(response.settings));
        setNotice('Settings saved.');
      },
    });
  };

  const serverField = serverFieldOf(update.error);
  const errorFor = (key: string) => errors[key] ?? (serverField === key ? serverFieldMessage(update.error) : undefined);

  return (
    <form className="settings-form" onSubmit={onSubmit} aria-labelledby="settings-heading" noValidate>
      <h2 id="settings-heading">Generation settings</h2>
      <div className="form-row">
        <Field label="Generation model" error={errorFor('generation_model')}>
          {(control) => (
            <input
              {...control}
              name="generation_model"
              autoComplete="off"
              value={draft.generation_model}
              onChange={(event) => set('generation_model', event.target.value)}
            />
          )}
        </Field>
        <Field label="Judge model" error={errorFor('judge_model')} hint="Grades free answers for CharXiv-style scoring (hqa score --format charxiv), at temperature 0; CharXiv graded with gpt-4o.">
          {(control) => (
            <input
              {...control}
              name="judge_model"
              autoComplete="off"
              value={draft.judge_model}
              onChange={(event) => set('judge_model', event.target.value)}
            />
          )}
        </Field>
        <Field label="Extraction model" error={errorFor('extraction_model')} hint="A vision model that reads a chart's data table from its image (hqa extract-tables, the chart page's Extract button), at temperature 0.">
          {(control) => (
            <input
              {...control}
              name="extraction_model"
              autoComplete="off"
              value={draft.extraction_model}
              onChange={(event) => set('extraction_model', event.target.value)}
            />
          )}
        </Field>
        <Field label={VISION_SIDE_FIELD.label} error={errorFor(VISION_SIDE_FIELD.key)} hint={VISION_SIDE_FIELD.hint}>
          {(control) => (
            <input {...control} name={VISION_SIDE_FIELD.key} type="number" step={VISION_SIDE_FIELD.step} value={draft[VISION_SIDE_FIELD.key]} onChange={(event) => set(VISION_SIDE_FIELD.key, event.target.value)} />
          )}
        </Field>
        <Field label="Vision image: detail for table extraction" error={errorFor('vision_detail')} hint="Chart-type requests always use low detail.">
          {(control) => (
            <select
              {...control}
              name="vision_detail"
              value={draft.vision_detail}
              onChange={(event) => {
                const detail = ImageDetailSchema.safeParse(event.target.value);
                if (detail.success) set('vision_detail', detail.data);
              }}
            >
              {ImageDetailSchema.options.map((detail) => (
                <option key={detail} value={detail}>
                  {DETAIL_LABELS[detail]}
                </option>
              ))}
            </select>
          )}
        </Field>
        {NUMBER_FIELDS.map(({ key, label, step }) => (
          <Field key={key} label={label} error={errorFor(key)}>
            {(control) => (
              <input
                {...control}
                name={key}
                type="number"
                step={step}
                value={draft[key]}
                onChange={(event) => set(key, event.target.value)}
              />
            )}
          </Field>
        ))}
      </div>
      <div className="form-row">
        <Field label={CONTROL_SHARE_FIELD.label} error={errorFor(CONTROL_SHARE_FIELD.key)} hint={CONTROL_SHARE_FIELD.hint}>
          {(control) => (
            <input
              {...control}
              name={CONTROL_SHARE_FIELD.key}
              type="number"
              min={0}
              max={1}
              step={CONTROL_SHARE_FIELD.step}
              value={draft[CONTROL_SHARE_FIELD.key]}
              onChange={(event) => set(CONTROL_SHARE_FIELD.key, event.target.value)}
            />
          )}
        </Field>
        <Field label={CHANGE_SHARE_FIELD.label} error={errorFor(CHANGE_SHARE_FIELD.key)} hint={CHANGE_SHARE_FIELD.hint}>
          {(control) => (
            <input
              {...control}
              name={CHANGE_SHARE_FIELD.key}
              type="number"
              min={0.1}
              max={0.99}
              step={CHANGE_SHARE_FIELD.step}
              value={draft[CHANGE_SHARE_FIELD.key]}
              onChange={(event) => set(CHANGE_SHARE_FIELD.key, event.target.value)}
            />
          )}
        </Field>
      </div>
      <label className="checkbox">
        <input type="checkbox" name="keep_items_with_errors" checked={draft.keep_items_with_errors} onChange={(event) => set('keep_items_with_errors', event.target.checked)} />
        Keep generated items the checks find errors in (flagged for reviewers); off: they are not stored
      </label>
      <PriceTable rows={draft.prices} onChange={(rows) => set('prices', rows)} error={errorFor('price_table')} />
      <h2 id="review-settings-heading">Review settings</h2>
      <div className="form-row" role="group" aria-labelledby="review-settings-heading">
        {REVIEW_NUMBER_FIELDS.map((field) => (
          <Field key={field.key} label={field.label} error={errorFor(field.key)} {...('hint' in field ? { hint: field.hint } : {})}>
            {(control) => (
              <input {...control} name={field.key} type="number" step={field.step} value={draft[field.key]} onChange={(event) => set(field.key, event.target.value)} />
            )}
          </Field>
        ))}
        <Field label="Consensus rule" error={errorFor('consensus_rule')}>
          {(control) => (
            <select
              {...control}
              name="consensus_rule"
              value={draft.consensus_rule}
              onChange={(event) => {
                const rule = ConsensusRuleSchema.safeParse(event.target.value);
                if (rule.success) set('consensus_rule', rule.data);
              }}
            >
              {CONSENSUS_RULES.map((rule) => (
                <option key={rule} value={rule}>
                  {CONSENSUS_LABELS[rule]}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <h2 id="session-settings-heading">Sessions</h2>
      <div className="form-row" role="group" aria-labelledby="session-settings-heading">
        <Field label={SESSION_IDLE_FIELD.label} error={errorFor(SESSION_IDLE_FIELD.key)} hint={SESSION_IDLE_FIELD.hint}>
          {(control) => (
            <input
              {...control}
              name={SESSION_IDLE_FIELD.key}
              type="number"
              min={5}
              step={SESSION_IDLE_FIELD.step}
              value={draft[SESSION_IDLE_FIELD.key]}
              onChange={(event) => set(SESSION_IDLE_FIELD.key, event.target.value)}
            />
          )}
        </Field>
      </div>
      <h2 id="upload-settings-heading">Uploads</h2>
      <div className="form-row" role="group" aria-labelledby="upload-settings-heading">
        {UPLOAD_NUMBER_FIELDS.map(({ key, label, step, hint }) => (
          <Field key={key} label={label} error={errorFor(key)} hint={hint}>
            {(control) => (
              <input {...control} name={key} type="number" min={1} step={step} value={draft[key]} onChange={(event) => set(key, event.target.value)} />
            )}
          </Field>
        ))}
      </div>
      <div className="form-row">
        <button type="submit" className="primary" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save settings'}
        </button>
      </div>
      {notice && (
        <p className="notice" role="status" data-testid="settings-notice">
          {notice}
        </p>
      )}
      {update.isError && !serverField && (
        <p className="error" role="alert">
          {errorMessage(update.error)}
        </p>
      )}
    </form>
  );
}

/** The admin's settings: generation (model, sampling, duplicate filter, limits, unchanged-answer controls, prices), review (k, rule, lease), sessions (idle timeout) and uploads' limits. */
export function SettingsForm() {
  const settings = useSettings();
  if (settings.isPending) return <p className="muted">Loading settings…</p>;
  if (settings.isError) {
    return (
      <p className="error" role="alert">
        Could not load the settings: {errorMessage(settings.error)}
      </p>
    );
  }
  return <SettingsEditor settings={settings.data.settings} />;
}
