import { Command, CommanderError, Option } from 'commander';
import type { ImportCommandOptions } from './import-command';
import type { UserAction } from './user-command';
import type { VerifyCommandOptions } from './verify-command';
import type { GenerateOptions } from './generate-command';
import type { ScoreFileCommandOptions } from './score-file-command';
import type { ExportCommandOptions } from './export-command';
import type { EvalCommandOptions } from './eval-command';
import type { RecordCommandOptions } from './eval-record-command';
import type { EvalRunCommandOptions } from './eval-run-command';
import type { ExtractTablesOptions } from './extract-tables-command';
import type { ReflectCommandOptions } from './reflect-command';

/**
 * `npm run --silent hqa -- <command>`: a thin client of the same domain functions the HTTP
 * API uses. Errors print one line naming what was wrong and exit non-zero. Each command loads
 * its modules when it runs, so `hqa user …` or `hqa score` does not first load the NLP
 * library, the model SDK and the renderer that other commands need (seconds per start).
 */
function buildProgram(): Command {
  const program = new Command('hqa').description('Chart-HQA Workbench command line').showHelpAfterError();
    // Commander's own exits (a bad option, --help) become a CommanderError with its code, so one
    // process can run several command lines (the tests run the CLI in-process).
    program.exitOverride();

  program
    .command('import')
    .description(
      'import charts and questions: a ChartQA split (tables/, png/, annotations/, <split>_human.json, <split>_augmented.json), ' +
        'a MultiChartQA folder (data/<group>/), a ChartBench folder (*.jsonl) or CharXiv data/ files; the format is detected when not given',
    )
    .argument('<dir>', 'the folder as the benchmark publishes it')
    .addOption(new Option('--format <format>', 'the folder’s format (default: detected)').choices(['chartqa', 'multichartqa', 'chartbench', 'charxiv']))
    .option('--images <dir>', 'ChartBench / CharXiv images (each record’s image path / <figure_id>.jpg under it); without it the charts are listed as image missing')
    .option('--split <name>', 'split name (default: ChartQA the question files’ prefix, else the folder name; multichartqa, chartbench, charxiv-val)')
    .option('--json', 'print only the JSON report on stdout')
    .action(async (dir: string, options: ImportCommandOptions) => {
      const { runImport } = await import('./import-command');
      process.exitCode = runImport(dir, options);
    });

  const user = program.command('user').description('manage users');
  user
    .command('add')
    .description('add a user; the password is read from stdin, or generated and printed once')
    .argument('<name>', 'username')
    .requiredOption('--role <role>', 'admin, curator or reviewer')
    .action(async (name: string, options: { role: string }) => {
      const { runUserAdd } = await import('./user-command');
      process.exitCode = await runUserAdd(name, options);
    });
  const USER_ACTIONS: { action: UserAction; description: string }[] = [
    { action: 'disable', description: 'disable a user: they cannot log in and their sessions end (never the last enabled admin)' },
    { action: 'enable', description: 'let a disabled user log in again' },
    { action: 'reset-password', description: 'give a user a generated password, printed once; their sessions end' },
    { action: 'revoke', description: 'end every session of a user; they may log in again' },
  ];
  for (const { action, description } of USER_ACTIONS) {
    user
      .command(action)
      .description(description)
      .argument('<name>', 'username')
      .action(async (name: string) => {
        const { runUserAction } = await import('./user-command');
        process.exitCode = await runUserAction(action, name);
      });
  }

  program
    .command('verify')
    .description('apply an edit to a ChartQA table CSV, run a program on it, and lint the edit')
    .requiredOption('--table <file.csv>', 'a ChartQA table, read exactly as the importer reads it')
    .option('--chart-type <type>', 'chart type for the lint (default: inferred from the table)')
    .option('--edit <json>', 'the counterfactual edit, a JSON array of ops')
    .requiredOption('--program <expr>', 'the program answering the question (docs/program-language.md)')
    .option('--json', 'print only JSON: { answer, answer_type, lint } or { error }')
    .action(async (options: VerifyCommandOptions) => {
      const { runVerify } = await import('./verify-command');
      process.exitCode = runVerify(options);
    });

  program
    .command('score')
    .description('score model predictions on a dataset: a Chart-HQA export (relaxed accuracy, per answer type, variance, bias rate, decline rate) or a seed benchmark\'s files (docs/benchmark-metrics.md)')
    .requiredOption('--dataset <file>', 'a chart-hqa export, or the benchmark\'s dataset file for --format')
    .requiredOption('--predictions <p.json>', 'predictions [{ id, prediction, raw }] (hqa eval output), or the benchmark\'s result file')
    .option('--baseline <p.json>', 'chart-hqa: predictions of the same model on the original factual questions, for the decline rate')
    .option('--json', 'print only the JSON report { format, title, figures[{ key, label, value, unit, note }], tables, warnings } or { error }')
    .option('--format <format>', 'chart-hqa (default), chartbench, multichartqa, charxiv or pairs (docs/benchmark-metrics.md)')
    .option('--rule <rule>', 'scoring rule: chartqa (pix2struct, default), qwen-vl or chartbench; the others\' accuracy is shown beside (docs/scoring-rules.md)')
    .action(async (options: ScoreFileCommandOptions) => {
      const { runScoreFile } = await import('./score-file-command');
      process.exitCode = await runScoreFile(options);
    });

  program
    .command('generate')
    .description('run generation (Stage 1 proposals and/or Stage 2 items) and wait for it to end')
    .option('--engine <engine>', 'offline or openai (default: openai when OPENAI_API_KEY is set, else offline)')
    .option('--stage <stage>', 'proposals, items or both', 'both')
    .option('--chart-type <type>', 'only this chart type')
    .option('--split <name>', 'only factual QAs of this split')
    .option('--items <n>', 'factual QAs to write items for', '20')
    .option('--order <order>', 'stratified (spread over chart types and charts, seeded by the run id) or id (lowest QA ids first)', 'stratified')
    .option('--proposal-batches <n>', 'Stage 1 calls per chart type', '1')
    .option('--concurrency <n>', 'calls in flight at once', '4')
    .option('--model <name>', 'model name (default: the generation_model setting)')
    .option('--budget-tokens <n>', 'stop the run cleanly at this many tokens')
    .option('--budget-cost <usd>', 'stop the run cleanly at this cost')
    .option('--weight-to-gaps', 'prefer proposals whose operation has the fewest accepted items')
    .option('--confirmed-types-only', 'only factual QAs of charts whose type is confirmed (an annotation, a curator, the questions\' words or a vision model decided it, or the chart has no image)')
    .option('--batch', "send each stage's requests as one OpenAI Batch API batch (batch price, answered within 24 h); a rerun with --run re-attaches to a batch in flight")
    .option('--batch-out <file>', "write the current stage's requests as JSONL for vllm run-batch, leave the run paused and print the command to read the results")
    .option('--batch-in <file>', "read a batch output file (vLLM's or OpenAI's) into --run N's current stage; no LLM calls are recorded or costed")
    .option('--batch-poll <ms>', 'milliseconds between polls of a batch (default HQA_BATCH_POLL_MS)')
    .option('--run <id>', 'continue this run (paused, left by a killed process, or waiting for --batch-in) instead of starting one')
    .option('--json', 'print only { run_id, status, proposals_created, items_created, items_failed, items_declined, llm_calls, prompt_tokens, completion_tokens, cached_tokens, cost }')
    .action(async (options: GenerateOptions) => {
      const { runGenerate } = await import('./generate-command');
      process.exitCode = await runGenerate(options);
    });

  program
    .command('export')
    .description('export the accepted items (corrections applied) as a Chart-HQA dataset')
    .requiredOption('--out <file>', 'output file (a folder for hf-dataset)')
    .option('--format <format>', 'chart-hqa, chartqa, jsonl, pairs (ChartBench judgement pairs, JSON lines) or hf-dataset (a Hugging Face imagefolder: metadata.jsonl, images/, README.md card)', 'chart-hqa')
    .option('--name <name>', 'dataset name', 'chart-hqa')
    .option('--full', 'add provenance: table hash, edit, program, verifier, every review, run and model')
    .option('--images <dir>', 'write each chart image (original or rendered from its table) to this folder')
    .option('--json', 'print only a JSON report')
    .action(async (options: ExportCommandOptions) => {
      const { runExport } = await import('./export-command');
      process.exitCode = await runExport(options);
    });

  program
    .command('eval')
    .description('ask an OpenAI-compatible vision model every question of an export; resumable')
    .requiredOption('--dataset <export.json>', 'a chart-hqa export')
    .requiredOption('--model <name>', 'the model to ask')
    .requiredOption('--out <predictions.json>', 'where to write [{ id, prediction, raw }] (an existing file is resumed)')
    .option('--images <dir>', 'chart images (hqa export --images DIR), sent base64')
    .option('--no-image', 'send no chart: the output-bias control (with a condition flag: the no_image condition)')
    .option('--original', 'ask the original factual questions (the ChartQA baseline for the decline rate; with a condition flag: the original condition)')
    .option('--hqa', 'condition hqa: the hypothetical questions with the chart')
    .option('--counterfactual-image', "condition counterfactual_image: the factual question on the item's edited table drawn (gold: the hypothetical answer); drawn from the workbench database (HQA_DB)")
    .option('--drawn-original', 'condition drawn_original: the factual question on the original table drawn the same way (the style control; gold: the factual label)')
    .option('--conditions <list>', 'conditions, comma-separated: hqa, original, no_image, counterfactual_image, drawn_original; with several, each goes to --out with the condition before its extension (p.json → p.counterfactual_image.json)')
    .option('--concurrency <n>', 'questions in flight at once', '4')
    .option('--batch', 'send the questions as one OpenAI Batch API batch (half price, within 24 h) and wait; a rerun re-attaches to it')
    .option('--batch-out <file.jsonl>', 'write the batch request JSONL and stop (for vllm run-batch -i FILE -o OUT)')
    .option('--batch-in <out.jsonl>', 'read a batch output JSONL (OpenAI or vLLM) into the predictions instead of asking')
    .option('--batch-poll <ms>', 'milliseconds between polls of a --batch batch', '30000')
    .option('--json', 'print only a JSON report')
    .action(async (options: EvalCommandOptions) => {
      const { runEval } = await import('./eval-command');
      process.exitCode = await runEval(options);
    });

  program
    .command('eval-run')
    .description("evaluate this database's accepted items as the Evaluation page does: an evaluation run in this process, listed on the page")
    .option('--engine <engine>', 'openai, or factual-baseline (answers each question with its factual label)', 'openai')
    .option('--model <name>', 'the model to ask (openai engine)')
    .option('--conditions <list>', 'conditions, comma-separated: hqa, original, no_image, counterfactual_image, drawn_original', 'hqa')
    .option('--concurrency <n>', 'questions in flight at once', '4')
    .option('--limit <n>', 'only the first N accepted items')
    .option('--batch', 'send the questions as one OpenAI Batch API batch (half price, within 24 h) and wait')
    .option('--json', 'print only { run }')
    .action(async (options: EvalRunCommandOptions) => {
      const { runEvalRun } = await import('./eval-run-command');
      process.exitCode = await runEvalRun(options);
    });

  program
    .command('reflect')
    .description("the Pool page's \"reflect on all with new feedback\" in this process: every active proposal with decisions it has not reflected on is revised by the reflection model, one after the other")
    .requiredOption('--user <name>', 'the curator or admin the batch is started by (as the page records its user)')
    .option('--chart-type <type>', 'only proposals of this chart type')
    .option('--json', 'print only { batch }')
    .action(async (options: ReflectCommandOptions) => {
      const { runReflect } = await import('./reflect-command');
      process.exitCode = await runReflect(options);
    });

  program
    .command('eval-record')
    .description('store an hqa eval predictions file as an evaluation run, shown on the Evaluation page')
    .requiredOption('--predictions <p.json>', 'predictions [{ id, prediction, raw }] whose ids are export ids of accepted items')
    .requiredOption('--model <name>', 'the model that made them')
    .option('--mode <mode>', 'hqa, original (factual questions) or no_image', 'hqa')
    .option('--json', 'print only { run } or { error }')
    .action(async (options: RecordCommandOptions) => {
      const { runRecord } = await import('./eval-record-command');
      process.exitCode = runRecord(options);
    });

  program
    .command('extract-tables')
    .description(
      'read the data table of each chart that has none from its image with the extraction model (the extraction_model setting, OPENAI_API_KEY); ' +
        'tables are stored as extracted, unconfirmed, as each arrives, so an interrupted run continues where it stopped',
    )
    .option('--split <name>', 'only this split')
    .option('--chart <id>', 'only this chart')
    .option('--force', 'also read again the tables extracted before and not yet confirmed (never an imported, typed-in or confirmed one)')
    .option('--concurrency <n>', 'charts asked at once', '4')
    .option('--batch-out <file>', 'write the requests (OpenAI Batch API / vllm run-batch JSONL, the image a base64 data URL in each line) instead of asking; nothing is stored')
    .option('--batch-in <file>', 'store the tables of a batch output file (OpenAI or vLLM), as a live run stores them; failed lines are named, the rest stored')
    .option('--json', 'print only the JSON report on stdout')
    .action(async (options: ExtractTablesOptions) => {
      const { runExtractTables } = await import('./extract-tables-command');
      process.exitCode = await runExtractTables(options);
    });

  program
    .command('migrate')
    .description('apply pending database migrations')
    .action(async () => {
      const [{ migrate, openDatabase }, { loadConfig }] = await Promise.all([import('../../db/database'), import('../config')]);
      const db = openDatabase(loadConfig().dbPath);
      try {
        const ran = migrate(db);
        process.stdout.write(ran.length ? `applied migrations ${ran.join(', ')}\n` : 'database is up to date\n');
      } finally {
        db.close();
      }
    });

  program
    .command('demo')
    .description('write the generated demo split (ChartQA layout) to a folder')
    .argument('<dir>', 'output folder')
    .option('--charts <n>', 'number of charts', '60')
    .option('--seed <n>', 'random seed', '1')
    .action(async (dir: string, options: { charts: string; seed: string }) => {
      const { generateDemoSplit } = await import('../demo/demo-split');
      const result = generateDemoSplit({ dir, split: 'demo', charts: Number(options.charts), seed: Number(options.seed) });
      process.stdout.write(`wrote ${result.charts} charts and ${result.qas} questions to ${dir}\n`);
    });

  return program;
}

/**
 * Runs one command line (the arguments after `hqa`) and answers its exit status. Commands set
 * `process.exitCode`; it is read here and cleared, so the caller decides what the process does.
 */
export async function runHqa(args: readonly string[]): Promise<number> {
  process.exitCode = undefined;
  try {
    await buildProgram().parseAsync([...args], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`hqa: ${message}\n`);
    return 1;
  }
  const status = typeof process.exitCode === 'number' ? process.exitCode : 0;
  process.exitCode = undefined;
  return status;
}
