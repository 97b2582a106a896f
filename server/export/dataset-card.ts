import { CHART_HQA_VERSION, type ExportStats } from '../../shared/export/chart-hqa';
import { HF_COUNTERFACTUAL_DIR, HF_IMAGES_DIR, HF_METADATA_FILE, HF_SPLIT } from '../../shared/export/hf-dataset';
import type { Settings } from '../../shared/settings';

/**
 * The `README.md` of an `hf-dataset` export: YAML front matter as the Hugging Face Hub reads it
 * (configs, dataset_info features and split sizes, a licence to fill in) and a card describing
 * the fields, the paper's Table 2 over the exported items and the review protocol.
 */

/** A column as `dataset_info.features` names it: a value type or a struct of columns. */
type Feature = { name: string; doc: string } & ({ dtype: 'string' | 'bool' | 'int64' | 'image' } | { struct: Feature[] } | { sequence: 'string' });

const s = (name: string, doc: string): Feature => ({ name, dtype: 'string', doc });
const b = (name: string, doc: string): Feature => ({ name, dtype: 'bool', doc });
const n = (name: string, doc: string): Feature => ({ name, dtype: 'int64', doc });

/** Every column of a metadata line (ExportItemSchema plus the image), in the order the card lists them. */
export const HF_FEATURES: readonly Feature[] = [
  { name: 'image', dtype: 'image', doc: `The chart (PNG): the original image, or drawn from its data table when the split had none. \`file_name\` in \`${HF_METADATA_FILE}\`.` },
  {
    name: 'counterfactual_image',
    dtype: 'image',
    doc: `The item's edited data table drawn (PNG), in the style of a drawing of its original table: the factual question asked on it is the evaluation's counterfactual-image condition (gold: \`answer\`). \`counterfactual_image_file_name\` in \`${HF_METADATA_FILE}\`; null when the edit cannot be drawn (a chart without a table, an unsupported type).`,
  },
  s('id', 'Stable public id of the item (`chq-000123`), the same in every export format.'),
  s('imgname', 'The chart\'s file name in its ChartQA split; `split/name` when two exported splits share a name.'),
  s('chart_type', 'Chart type (e.g. `simple_bar`, `pie`, `line`).'),
  s('assumption', 'The hypothetical premise, e.g. "Suppose sales in 2019 were twice as high."'),
  s('question', 'The full hypothetical question, assumption included.'),
  s('answer', 'The answer under the assumption, reviewers\' corrections applied.'),
  s('answer_type', '`integer`, `decimal`, `boolean` or `text`.'),
  b('affects_answer', 'The assumption changes the answer of the factual question: the generating model\'s claim, or for hand-written items the verifier\'s finding.'),
  s('question_relation', '`same`: the factual question asked under the assumption (the paper\'s task); `different`: another question.'),
  b('control', 'A control item, kept on purpose although the assumption leaves the factual answer unchanged.'),
  {
    name: 'original',
    doc: 'The factual ChartQA question the item was made from.',
    struct: [s('query', 'The factual question.'), s('label', 'Its ChartQA answer.'), s('source', '`human` or `augmented` (ChartQA\'s two question sets), or the benchmark it was imported from.')],
  },
  {
    name: 'proposal',
    doc: 'The instruction proposal (a counterfactual operation for the chart type) the item came from; null for hand-written items.',
    struct: [n('id', 'Proposal id.'), s('text', 'Proposal text.')],
  },
  {
    name: 'review',
    doc: 'How the item was reviewed.',
    struct: [
      n('reviews', 'Reviews counted.'),
      n('accepts', 'Reviews that accepted it.'),
      n('rejects', 'Reviews that rejected it.'),
      b('adjudicated', 'A curator decided it after reviewers disagreed.'),
      b('corrected', 'A reviewer or curator corrected the model\'s answer or question.'),
    ],
  },
  {
    name: 'verification',
    doc: 'What the verifier computed over.',
    struct: [
      s('table', '`confirmed`: the chart\'s data table was published with it or confirmed by a curator; `unconfirmed`: extracted from the image by a vision model and not confirmed, so the answer was checked against a table that may misread the chart and reviewers judged from the image.'),
    ],
  },
];

/**
 * The columns only an item over a chart group fills (null on the others), listed when the export
 * has some: `imagefolder` loads one image per row (`file_name`, the edited chart), so the group's
 * charts travel as a list of paths a loader opens itself.
 */
export const HF_GROUP_FEATURES: readonly Feature[] = [
  { name: 'images', sequence: 'string', doc: 'An item over a chart group (null for one chart): every chart\'s file name in group order, as `imgname` names one; `imgname` is then null. Show a model all of them, in this order.' },
  n('edited_chart', 'An item over a chart group: the 1-based position in `images` of the chart the assumption edits (null when the assumption has no machine-readable edit).'),
  { name: 'image_files', sequence: 'string', doc: `An item over a chart group: every chart's PNG under \`${HF_IMAGES_DIR}/\`, in group order, relative to this folder; the \`image\` column holds the edited one.` },
];

const q = (text: string) => JSON.stringify(text);

function featureYaml(feature: Feature, indent: string): string[] {
  const head = `${indent}- name: ${feature.name}`;
  if ('dtype' in feature) return [head, `${indent}  dtype: ${feature.dtype}`];
  if ('sequence' in feature) return [head, `${indent}  sequence: ${feature.sequence}`];
  return [head, `${indent}  struct:`, ...feature.struct.flatMap((child) => featureYaml(child, `${indent}  `))];
}

function featureRows(feature: Feature, prefix = ''): string[] {
  const name = `${prefix}${feature.name}`;
  const type = 'dtype' in feature ? feature.dtype : 'sequence' in feature ? `list of ${feature.sequence}` : 'struct';
  return [`| \`${name}\` | ${type} | ${feature.doc.replaceAll('|', '\\|')} |`, ...('struct' in feature ? feature.struct.flatMap((child) => featureRows(child, `${name}.`)) : [])];
}

/** The Hub's size bucket for a row count. */
export function sizeCategory(rows: number): string {
  if (rows < 1_000) return 'n<1K';
  if (rows < 10_000) return '1K<n<10K';
  if (rows < 100_000) return '10K<n<100K';
  if (rows < 1_000_000) return '100K<n<1M';
  return '1M<n<10M';
}

export interface DatasetCardInput {
  name: string;
  items: number;
  images: number;
  stats: ExportStats;
  settings: Pick<Settings, 'reviews_per_item' | 'consensus_rule'>;
  createdAt: Date;
  /** Items over a chart group (their columns and a paragraph are added when there are some). */
  groupItems?: number;
}

export function datasetCard({ name, items, images, stats, settings, createdAt, groupItems = 0 }: DatasetCardInput): string {
  const features = groupItems > 0 ? [...HF_FEATURES, ...HF_GROUP_FEATURES] : HF_FEATURES;
  const frontMatter = [
    '---',
    '# Fill in the licence before publishing: an identifier from https://huggingface.co/docs/hub/repositories-licenses',
    '# (the charts and questions keep the terms of the ChartQA sources they came from).',
    'license: ""',
    `pretty_name: ${q(name)}`,
    'language:',
    '- en',
    'task_categories:',
    '- visual-question-answering',
    'tags:',
    '- charts',
    '- chart-question-answering',
    '- hypothetical-questions',
    '- counterfactual-reasoning',
    'size_categories:',
    `- ${sizeCategory(items)}`,
    'configs:',
    '- config_name: default',
    '  data_files:',
    `  - split: ${HF_SPLIT}`,
    '    path:',
    `    - ${HF_METADATA_FILE}`,
    `    - ${HF_IMAGES_DIR}/**`,
    `    - ${HF_COUNTERFACTUAL_DIR}/**`,
    'dataset_info:',
    '  features:',
    ...features.flatMap((feature) => featureYaml(feature, '  ')),
    '  splits:',
    `  - name: ${HF_SPLIT}`,
    `    num_examples: ${items}`,
    '---',
  ];
  const percent = (value: number | null) => (value === null ? '–' : `${value}%`);
  const body = [
    `# ${name}`,
    '',
    `Hypothetical questions over charts (Chart-HQA, export format version ${CHART_HQA_VERSION}): each item takes a factual ChartQA`,
    'question, adds an assumption that changes the chart\'s data ("Suppose …"), and asks the question under it. Every item was',
    'checked by a verifier (the assumption as an edit of the chart\'s data table, the answer recomputed by a program over the',
    'edited table) and accepted by human reviewers. Exported by Chart-HQA Workbench on',
    `${createdAt.toISOString().slice(0, 10)}: ${items} items over ${images} chart images.`,
    '',
    '## Loading',
    '',
    '```python',
    'from datasets import load_dataset',
    '',
    'ds = load_dataset("imagefolder", data_dir="path/to/this/folder")  # the split is named "train" this way',
    'ds = load_dataset("path/to/this/folder")  # reads this card\'s configs: the split "test"',
    '```',
    '',
    `Each line of \`${HF_METADATA_FILE}\` is one item; \`file_name\` is its chart under \`${HF_IMAGES_DIR}/\`, and several items`,
    'share a chart. `datasets` reads the file into the `image` column.',
    '',
    '## Fields',
    '',
    '| field | type | meaning |',
    '| --- | --- | --- |',
    ...features.flatMap((feature) => featureRows(feature)),
    '',
    ...(groupItems > 0
      ? [
          '## Items over several charts',
          '',
          `${groupItems} of ${items} items ask about a chart group (2-4 charts, as MultiChartQA's questions do): the question relates the`,
          'charts and the assumption edits one of them. Such an item has `images` (every chart, in order) in place of `imgname`, and',
          '`edited_chart`. `imagefolder` loads one image per row, so `file_name` (the `image` column) is the edited chart and',
          '`image_files` lists every chart\'s PNG; show a model all of them, in order, labelled "Chart 1", "Chart 2", ….',
          '',
        ]
      : []),
    '## Statistics (as the paper\'s Table 2)',
    '',
    '| | |',
    '| --- | --- |',
    `| questions | ${stats.questions} |`,
    `| proposals | ${stats.proposals} |`,
    `| charts | ${stats.charts} |`,
    `| integer answers | ${stats.answer_types.integer} |`,
    `| decimal answers | ${stats.answer_types.decimal} |`,
    `| boolean answers | ${stats.answer_types.boolean} |`,
    `| text answers | ${stats.answer_types.text} |`,
    `| average characters per question | ${stats.avg_chars.question} |`,
    `| average characters per assumption | ${stats.avg_chars.assumption} |`,
    `| average characters per answer | ${stats.avg_chars.answer} |`,
    `| pass rate (accepted of decided items) | ${percent(stats.pass_rate)} |`,
    `| same question as the factual one | ${stats.same_question} |`,
    `| control items | ${stats.controls} |`,
    `| items verified on an unconfirmed (extracted) table | ${stats.table_unconfirmed} |`,
    '',
    ...(stats.table_unconfirmed === 0
      ? ['Every item was verified on a confirmed data table (published with its chart, or confirmed by a curator).']
      : [
          `${stats.table_unconfirmed} of ${stats.questions} items were verified on a data table a vision model extracted from the chart's image and`,
          'no curator confirmed (`verification.table` is `unconfirmed`): their answers were judged by reviewers from the image, not',
          'checked against a vouched-for table. Filter on `verification.table == "confirmed"` for the strictly verified subset.',
        ]),
    '',
    '## Review protocol',
    '',
    '- Items are written by a model from an instruction proposal and a factual question, or by hand; each states its',
    '  assumption as an edit of the chart\'s data table and its answer as a program. The verifier applies the edit, runs the',
    '  program, lints the edited table against the chart type (pie slices still sum to 100, named series exist, …) and',
    '  computes whether the assumption changes the factual answer. Its verdict is advice shown to reviewers.',
    '- Reviewers claim items one at a time (never their own) and judge three criteria, each pass/fail: **rationality** (the',
    '  assumption is sensible and the question clear), **correctness** (the answer is right for the assumed chart) and',
    '  **layout consistency** (the assumption respects the chart\'s structure). A rejection names a failed criterion and',
    '  gives feedback; an acceptance may correct the answer or question, and the correction is what this dataset holds.',
    `- Each item needs ${settings.reviews_per_item} review${settings.reviews_per_item === 1 ? '' : 's'}; the ${settings.consensus_rule} rule decides`,
    `  (${settings.consensus_rule === 'unanimous' ? 'all accept: accepted, all reject: rejected' : 'more accepts: accepted, more rejects: rejected'}, otherwise a curator adjudicates).`,
    '  Only accepted items are exported.',
    '',
    '## Licence',
    '',
    'Fill in `license:` above. The charts and factual questions come from ChartQA and keep their sources\' terms.',
    '',
  ];
  return `${frontMatter.join('\n')}\n\n${body.join('\n')}`;
}
