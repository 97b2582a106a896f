import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Mustache from 'mustache';
import { z } from 'zod';
import { CHART_TYPES, ChartTypeSchema, type ChartType } from '../../shared/domain/chart-types';
import { MAX_CANDIDATES } from '../../shared/generation/pairing';
import { isMissingCell } from '../../shared/table/cell';
import type { DataTable } from '../../shared/table/model';

/**
 * The prompt files in `prompts/` (see prompts/README.md): mustache templates with a typed
 * variable schema each, the chart-type descriptions (D_C) and the hand-written seed proposals.
 * Everything is read once per process; a template's hash is the sha256 of its file text, which
 * every LLM call records so an output can be traced to the exact prompt that produced it.
 */

const PROMPTS_DIR = new URL('../../prompts/', import.meta.url);

/** The line that ends a template's system message and starts its user message. */
export const USER_MARKER = '=== user ===';

/** Hand-written seed proposals per chart type, as the paper's pool starts. */
export const SEEDS_PER_TYPE = 4;

/** ProposalBatchSchema (shared/generation/item-draft.ts) accepts 1–20 proposals per reply. */
const MAX_PROPOSALS_PER_CALL = 20;

/** Bounds of one proposal's text, as ProposalBatchSchema checks model output. */
const PROPOSAL_MIN_CHARS = 10;
const PROPOSAL_MAX_CHARS = 400;

/** A validation error longer than this is cut in the repair message: the model needs the gist, not pages of issues. */
export const MAX_REPAIR_ERROR_CHARS = 2000;

/** A bad prompt file or bad template variables; the message names the file or the variable. */
export class PromptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PromptError';
  }
}

const Text = z.string().trim().min(1);

/**
 * What Stage 2 offers (shared/generation/pairing.ts): the proposal the task is paired with, or
 * candidates numbered from 1 to choose from (choose mode): exactly one of the two.
 */
function offered<C extends z.ZodType>(candidate: C) {
  return {
    /** The proposal to apply (I_P); null in choose mode. */
    proposal: Text.nullable().default(null),
    /** Choose mode: the proposals listed, the task's own first; empty otherwise. */
    candidates: z.array(candidate).max(MAX_CANDIDATES).default([]),
  };
}
const oneOffer = (vars: { proposal: string | null; candidates: unknown[] }) => (vars.proposal === null) !== (vars.candidates.length === 0);
const ONE_OFFER = { message: 'give either a proposal or candidates (choose mode), not both or neither', path: ['proposal'] };
const Candidate = z.object({ number: z.number().int().min(1), text: Text });

export const Stage1VarsSchema = z.object({
  chart_type: ChartTypeSchema,
  chart_type_label: Text,
  chart_type_description: Text,
  /** The sampled pool proposals shown as examples (I_S). */
  examples: z.array(Text),
  /** How many new proposals to ask for. */
  count: z.number().int().min(1).max(MAX_PROPOSALS_PER_CALL),
  /** Proposals for questions over a chart group (their assumption edits one chart of this type); the examples are group proposals. */
  group: z.boolean().default(false),
});
export type Stage1Vars = z.input<typeof Stage1VarsSchema>;

export const Stage2VarsSchema = z
  .object({
    chart_type: ChartTypeSchema,
    chart_type_label: Text,
    chart_type_description: Text,
    ...offered(Candidate),
    /** The factual question and its label (QA_O). */
    question: Text,
    label: Text,
    /** The chart's title; null renders as "untitled". */
    title: z.string().nullable(),
    /** The data table as tableToPromptCsv renders it (A_C). */
    table_csv: Text,
    series: z.array(z.string()).min(1),
    rows: z.array(z.string()).min(1),
  })
  .refine(oneOffer, ONE_OFFER);
export type Stage2Vars = z.input<typeof Stage2VarsSchema>;

/** `stage2-group-item`: Stage 2 over a chart group (2–4 charts); `chart_type` is the proposal's, the type of the chart it edits. */
export const Stage2GroupVarsSchema = z
  .object({
    chart_type: ChartTypeSchema,
    chart_type_label: Text,
    chart_type_description: Text,
    /** A candidate names the type of chart it edits. */
    ...offered(Candidate.extend({ chart_type_label: Text })),
    question: Text,
    label: Text,
    charts: z
      .array(
        z.object({
          position: z.number().int().min(1),
          chart_type: ChartTypeSchema,
          chart_type_label: Text,
          /** Null or blank renders as "untitled". */
          title: z.string().nullable(),
          table_csv: Text,
          series: z.array(z.string()).min(1),
          rows: z.array(z.string()).min(1),
          /** Of the proposal's type: a chart the assumption may edit. */
          editable: z.boolean(),
          /** Its stored image is attached: images go in chart order, so the text names the charts that have none. */
          image: z.boolean(),
        }),
      )
      .min(2)
      .max(4),
  })
  .refine(oneOffer, ONE_OFFER);
export type Stage2GroupVars = z.input<typeof Stage2GroupVarsSchema>;

export const RepairVarsSchema = z.object({
  /** Why the previous reply failed: the JSON parse error or the schema's issues. */
  error: Text,
  /** The name of what was asked for, e.g. "HqaItemDraft". */
  schema_name: Text,
});
export type RepairVars = z.input<typeof RepairVarsSchema>;

export const ReflectionVarsSchema = z.object({
  chart_type: ChartTypeSchema,
  chart_type_label: Text,
  chart_type_description: Text,
  proposal: Text,
  decided: z.number().int().min(0),
  accepted: z.number().int().min(0),
  /** The reviews of the proposal's items, one entry each. */
  feedback: z
    .array(
      z.object({
        question: Text,
        decision: z.enum(['accept', 'reject']),
        /** Failed criteria, comma-separated, or "none". */
        failed: Text,
        notes: z.string(),
        comment: z.string(),
        correction: z.string(),
      }),
    )
    .min(1),
});
export type ReflectionVars = z.input<typeof ReflectionVarsSchema>;

/** Every `judge-<family>` template: what was asked, the ground truth, the model's whole response. */
export const JudgeVarsSchema = z.object({ question: Text, ground_truth: Text, response: Text });
export type JudgeVars = z.input<typeof JudgeVarsSchema>;
const judgeTemplate = { schema: JudgeVarsSchema, view: (vars: z.output<typeof JudgeVarsSchema>) => vars };

/** `extract-table`: the chart the vision model is shown (its image goes beside the text, server/tables/extract-table.ts). */
export const ExtractTableVarsSchema = z.object({ type_request: Text });
export type ExtractTableVars = z.input<typeof ExtractTableVarsSchema>;

/** `chart-type`: no variables; the chart is its image, sent beside the text (server/chart-types/vision-chart-type.ts). */
export const ChartTypeVarsSchema = z.object({});
export type ChartTypeVars = z.input<typeof ChartTypeVarsSchema>;

/** Each template's variable schema and the view it renders from the validated variables. */
const TEMPLATES = {
  'stage1-proposals': { schema: Stage1VarsSchema, view: (vars: z.output<typeof Stage1VarsSchema>) => vars },
  'stage2-item': {
    schema: Stage2VarsSchema,
    view: (vars: z.output<typeof Stage2VarsSchema>) => ({
      ...vars,
      choose: vars.candidates.length > 0,
      title: vars.title === null || vars.title.trim() === '' ? 'untitled' : vars.title.trim(),
      // JSON arrays, so labels with commas, quotes or odd spacing stay unambiguous.
      rows_json: JSON.stringify(vars.rows),
      series_json: JSON.stringify(vars.series),
    }),
  },
  'stage2-group-item': {
    schema: Stage2GroupVarsSchema,
    view: (vars: z.output<typeof Stage2GroupVarsSchema>) => ({
      ...vars,
      choose: vars.candidates.length > 0,
      charts: vars.charts.map((chart) => ({
        ...chart,
        title: chart.title === null || chart.title.trim() === '' ? 'untitled' : chart.title.trim(),
        rows_json: JSON.stringify(chart.rows),
        series_json: JSON.stringify(chart.series),
      })),
    }),
  },
  reflection: { schema: ReflectionVarsSchema, view: (vars: z.output<typeof ReflectionVarsSchema>) => vars },
  'repair-json': {
    schema: RepairVarsSchema,
    view: (vars: z.output<typeof RepairVarsSchema>) => ({
      ...vars,
      error: vars.error.length > MAX_REPAIR_ERROR_CHARS ? `${vars.error.slice(0, MAX_REPAIR_ERROR_CHARS)}…` : vars.error,
    }),
  },
  // The LLM judge's rubric families (RUBRIC_FAMILIES in shared/eval/charxiv-metrics.ts), one prompt each.
  'judge-title': judgeTemplate,
  'judge-chart-text': judgeTemplate,
  'judge-quantity': judgeTemplate,
  'judge-yes-no': judgeTemplate,
  'judge-ordered-list': judgeTemplate,
  'judge-trend': judgeTemplate,
  'judge-layout': judgeTemplate,
  'judge-text-in-chart': judgeTemplate,
  'judge-text-in-general': judgeTemplate,
  'judge-number': judgeTemplate,
  'extract-table': { schema: ExtractTableVarsSchema, view: (vars: z.output<typeof ExtractTableVarsSchema>) => vars },
  'chart-type': { schema: ChartTypeVarsSchema, view: (vars: z.output<typeof ChartTypeVarsSchema>) => vars },
} as const;

export type TemplateName = keyof typeof TEMPLATES;
export const TEMPLATE_NAMES = Object.keys(TEMPLATES) as TemplateName[];
export type TemplateVars<N extends TemplateName> = z.input<(typeof TEMPLATES)[N]['schema']>;

/** A rendered prompt. `system` is empty for repair-json, which is a follow-up user message only. */
export interface RenderedPrompt {
  system: string;
  user: string;
}

export interface PromptTemplate<N extends TemplateName> {
  name: N;
  /** sha256 (hex) of the template file's text. */
  hash: string;
  /** Validates `vars` (throws PromptError naming a missing or bad variable) and renders both messages. */
  render(vars: TemplateVars<N>): RenderedPrompt;
}

const templateCache = new Map<TemplateName, PromptTemplate<TemplateName>>();

/** Loads `prompts/<name>.md` once per process. */
export function loadTemplate<N extends TemplateName>(name: N): PromptTemplate<N> {
  if (!Object.hasOwn(TEMPLATES, name)) {
    throw new PromptError(`unknown template ${JSON.stringify(name)}; known: ${TEMPLATE_NAMES.join(', ')}`);
  }
  const cached = templateCache.get(name);
  if (cached) return cached as PromptTemplate<N>;
  const template = buildTemplate(name, readPromptFile(`${name}.md`));
  templateCache.set(name, template as PromptTemplate<TemplateName>);
  return template;
}

/** A template from its text; loadTemplate's work without the file, for tests and tools. */
export function buildTemplate<N extends TemplateName>(name: N, text: string): PromptTemplate<N> {
  const file = `prompts/${name}.md`;
  const parts = splitMessages(text, file);
  const { schema, view } = TEMPLATES[name];
  // Parse now so a malformed tag fails at load, not on the first call.
  for (const part of [parts.system, parts.user]) {
    try {
      Mustache.parse(part);
    } catch (error) {
      throw new PromptError(`${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return {
    name,
    hash: sha256(text),
    render(vars) {
      const parsed = schema.safeParse(vars);
      if (!parsed.success) throw new PromptError(`template ${name}: ${describeIssues(parsed.error.issues, vars)}`);
      const data = (view as (v: unknown) => Record<string, unknown>)(parsed.data);
      return { system: renderPart(parts.system, data), user: renderPart(parts.user, data) };
    },
  };
}

function splitMessages(text: string, file: string): RenderedPrompt {
  const lines = text.split('\n');
  const markers = lines.flatMap((line, index) => (line.replace(/\r$/, '') === USER_MARKER ? [index] : []));
  if (markers.length !== 1) {
    throw new PromptError(
      `${file}: needs exactly one line "${USER_MARKER}" between the system and the user message; found ${markers.length}`,
    );
  }
  const at = markers[0] as number;
  return { system: lines.slice(0, at).join('\n'), user: lines.slice(at + 1).join('\n') };
}

/** HTML escaping off: prompts are plain text, and `&quot;` would corrupt labels and JSON. */
function renderPart(part: string, view: Record<string, unknown>): string {
  return Mustache.render(part, view, {}, { escape: (value: string) => value }).trim();
}

function describeIssues(issues: readonly z.core.$ZodIssue[], vars: unknown): string {
  const input = typeof vars === 'object' && vars !== null ? (vars as Record<string, unknown>) : {};
  const reasons = issues.map((issue) => {
    const key = String(issue.path[0] ?? '');
    if (key === '') return issue.message;
    if (input[key] === undefined) return `missing variable "${key}"`;
    const where = issue.path.map(String).join('.');
    return `variable "${where}": ${issue.message}`;
  });
  return [...new Set(reasons)].join('; ');
}

const descriptionCache = new Map<ChartType, string>();

/** D_C: what a chart type shows, what can change counterfactually and what structure must hold. */
export function chartTypeDescription(type: ChartType): string {
  const parsed = ChartTypeSchema.safeParse(type);
  if (!parsed.success) throw new PromptError(`unknown chart type ${JSON.stringify(type)}; known: ${CHART_TYPES.join(', ')}`);
  const cached = descriptionCache.get(parsed.data);
  if (cached !== undefined) return cached;
  const file = `chart-types/${parsed.data}.md`;
  const text = readPromptFile(file).trim();
  if (text === '') throw new PromptError(`prompts/${file}: the description is empty`);
  descriptionCache.set(parsed.data, text);
  return text;
}

let seedCache: Record<ChartType, string[]> | null = null;

/** The hand-written seed proposals of `prompts/seeds.json`, checked: every chart type, exactly SEEDS_PER_TYPE each. */
export function seedProposals(): Record<ChartType, string[]> {
  seedCache ??= parseSeedProposals(readPromptFile('seeds.json'), 'prompts/seeds.json');
  return structuredClone(seedCache);
}

/** Validates seed-file text; errors name `file` and the offending key. */
export function parseSeedProposals(text: string, file: string): Record<ChartType, string[]> {
  let data: unknown;
  try {
    data = JSON.parse(text) as unknown;
  } catch (error) {
    throw new PromptError(`${file}: not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new PromptError(`${file}: expected an object mapping each chart type to its seed proposals`);
  }
  const entries = data as Record<string, unknown>;
  for (const key of Object.keys(entries)) {
    if (!ChartTypeSchema.safeParse(key).success) {
      throw new PromptError(`${file}: key "${key}" is not a chart type; known: ${CHART_TYPES.join(', ')}`);
    }
  }
  const seeds = {} as Record<ChartType, string[]>;
  for (const type of CHART_TYPES) {
    const list = entries[type];
    if (list === undefined) throw new PromptError(`${file}: key "${type}" is missing`);
    if (!Array.isArray(list) || list.length !== SEEDS_PER_TYPE) {
      throw new PromptError(`${file}: key "${type}" must be an array of exactly ${SEEDS_PER_TYPE} proposals`);
    }
    list.forEach((seed: unknown, index) => {
      const length = typeof seed === 'string' ? seed.trim().length : -1;
      if (length < PROPOSAL_MIN_CHARS || length > PROPOSAL_MAX_CHARS) {
        throw new PromptError(
          `${file}: "${type}"[${index}] must be a sentence of ${PROPOSAL_MIN_CHARS}–${PROPOSAL_MAX_CHARS} characters`,
        );
      }
    });
    const texts = (list as string[]).map((seed) => seed.trim());
    const repeated = texts.find((seed, index) => texts.indexOf(seed) !== index);
    if (repeated !== undefined) throw new PromptError(`${file}: key "${type}" repeats the proposal ${JSON.stringify(repeated)}`);
    seeds[type] = texts;
  }
  return seeds;
}

/**
 * A data table as compact CSV for a prompt: the header, then one line per row with the raw
 * cell text (units as printed), missing cells as `nan`; fields with commas or quotes quoted.
 */
export function tableToPromptCsv(table: DataTable): string {
  const lines = [[table.label_header, ...table.series]];
  for (const row of table.rows) {
    lines.push([
      row.label,
      ...table.series.map((_, index) => {
        const raw = (row.raw[index] ?? '').trim();
        if (row.values[index] === null && isMissingCell(raw)) return 'nan';
        // An extracted table keeps the unit apart ("8.7", unit "%"): the prompt's cells keep the chart's units, as ChartQA's do, so shares read as shares.
        return table.units?.[index]?.trim() === '%' && !raw.endsWith('%') ? `${raw}%` : raw;
      }),
    ]);
  }
  return lines.map((cells) => cells.map(csvField).join(',')).join('\n');
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function readPromptFile(relative: string): string {
  const url = new URL(relative, PROMPTS_DIR);
  try {
    return readFileSync(fileURLToPath(url), 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new PromptError(`prompts/${relative}: cannot be read (${reason})`);
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
