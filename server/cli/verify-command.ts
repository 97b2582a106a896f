import { ChartTypeSchema } from '../../shared/domain/chart-types';
import { inferChartType } from '../../shared/domain/infer-chart-type';
import { classifyAnswer } from '../../shared/table/answers';
import { verifyItem } from '../../shared/table/verify';
import { readTableCsv } from '../import/csv-table';

export interface VerifyCommandOptions {
  table: string;
  chartType?: string;
  edit?: string;
  program: string;
  json?: boolean;
}

type VerifyOutput =
  | { answer: string; answer_type: string; lint: { code: string; severity: string; message: string }[] }
  | { error: { message: string; position?: number } };

/**
 * `hqa verify`: reads a table exactly as the importer does, applies the edit, runs the
 * program, lints — the same verifier items get. Returns the output and the exit status.
 */
export function verifyOnTableFile(options: VerifyCommandOptions): { output: VerifyOutput; status: number } {
  let chartType = undefined;
  if (options.chartType !== undefined) {
    const parsed = ChartTypeSchema.safeParse(options.chartType);
    if (!parsed.success) return fail(`--chart-type: must be one of ${ChartTypeSchema.options.join(', ')}`);
    chartType = parsed.data;
  }
  let table;
  try {
    table = readTableCsv(options.table);
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  let edit: unknown = undefined;
  if (options.edit !== undefined) {
    try {
      edit = JSON.parse(options.edit) as unknown;
    } catch (error) {
      return fail(`--edit: not valid JSON: ${(error as Error).message}`);
    }
  }
  const result = verifyItem({ table, chartType: chartType ?? inferChartType(table), edit, program: options.program, answer: '' });
  if (result.error || result.recomputed_answer === null) {
    const prefix = result.error?.stage === 'edit' ? '--edit: ' : '';
    return {
      output: {
        error: {
          message: `${prefix}${result.error?.message ?? 'no answer'}`,
          ...(result.error?.position !== undefined ? { position: result.error.position } : {}),
        },
      },
      status: 1,
    };
  }
  return {
    output: {
      answer: result.recomputed_answer,
      answer_type: classifyAnswer(result.recomputed_answer),
      lint: result.lint.map(({ code, severity, message }) => ({ code, severity, message })),
    },
    status: 0,
  };
}

function fail(message: string): { output: VerifyOutput; status: number } {
  return { output: { error: { message } }, status: 1 };
}

export function runVerify(options: VerifyCommandOptions): number {
  const { output, status } = verifyOnTableFile(options);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(output)}\n`);
  } else if ('error' in output) {
    const where = output.error.position !== undefined ? `\n  ${options.program}\n  ${' '.repeat(output.error.position)}^` : '';
    process.stderr.write(`error: ${output.error.message}${where}\n`);
  } else {
    process.stdout.write(`${output.answer}  (${output.answer_type})\n`);
    for (const finding of output.lint) process.stdout.write(`${finding.severity}: ${finding.code}: ${finding.message}\n`);
  }
  return status;
}
