import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { evalApi, type ScoreFileRequest } from '@shared/api/evaluations';
import { SCORE_FILE_FORMATS, ScoreFileFormatSchema, type ScoreFileFormat } from '@shared/eval/score-report';
import { DEFAULT_SCORING_RULE, SCORING_RULES, ScoringRuleSchema, type ScoringRule } from '@shared/eval/scoring-rules';
import { call, errorMessage } from '../../api/http';
import { ActionError } from '../../ui/error-messages';
import { Field } from '../../ui/field';
import { SubmitButton } from '../../ui/submit-button';
import { ScoreReportView } from './score-report-view';

const FORMAT_LABELS: Record<ScoreFileFormat, string> = {
  'chart-hqa': 'Chart-HQA (hqa export; predictions from hqa eval, a baseline on the factual questions for the decline rate)',
  chartbench: 'ChartBench (its JSONL; predictions with ids "<record id>#<conversation index>", or its result JSONL)',
  multichartqa: 'MultiChartQA (a group’s chart-path_and_question-answer_pair.json; predictions by question id)',
  charxiv: 'CharXiv (graded by the judge model)',
  pairs: 'Chart-HQA judgement pairs (hqa export --format pairs)',
};

const RULE_LABELS: Record<ScoringRule, string> = {
  chartqa: 'chartqa — pix2struct’s relaxed rule (the reference)',
  'qwen-vl': 'qwen-vl — divides by the prediction',
  chartbench: 'chartbench — ChartBench’s script',
};

type ChosenFile = { name: string; text: string } | { name: string; error: string } | null;
type FileRole = 'dataset' | 'predictions' | 'baseline';

/** A chosen file read as text in the browser; only the file chosen last may set the state. */
function useFileText(): [ChosenFile, (event: ChangeEvent<HTMLInputElement>) => void] {
  const [file, setFile] = useState<ChosenFile>(null);
  const latest = useRef<File | null>(null);
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0] ?? null;
    latest.current = chosen;
    if (!chosen) {
      setFile(null);
      return;
    }
    chosen.text().then(
      (text) => {
        if (latest.current === chosen) setFile({ name: chosen.name, text });
      },
      (error: unknown) => {
        if (latest.current === chosen) setFile({ name: chosen.name, error: `${chosen.name}: could not be read (${errorMessage(error)})` });
      },
    );
  };
  return [file, onChange];
}

/** Which file a server message is about: it starts with the file's name (`test_mini.jsonl: line 12: …`). */
function fileOfMessage(message: string, names: Record<FileRole, string | undefined>): FileRole | null {
  if (names.dataset && message.startsWith(`${names.dataset}:`)) return 'dataset';
  if (names.predictions && message.startsWith(`${names.predictions}:`)) return 'predictions';
  if (names.baseline && message.startsWith(`${names.baseline}:`)) return 'baseline';
  return null;
}

/**
 * Scores a seed benchmark's files in the browser's hands: the dataset and the predictions are
 * read here and sent to the server, which answers the same report `hqa score --format` prints.
 * Nothing is stored.
 */
export function ScoreFilePanel() {
  const [format, setFormat] = useState<ScoreFileFormat>('chartbench');
  const [rule, setRule] = useState<ScoringRule>(DEFAULT_SCORING_RULE);
  const [dataset, onDataset] = useFileText();
  const [predictions, onPredictions] = useFileText();
  const [baseline, onBaseline] = useFileText();
  const [missing, setMissing] = useState<Partial<Record<FileRole, string>>>({});
  const score = useMutation({ mutationFn: (body: ScoreFileRequest) => call(evalApi.scoreFile, { body }) });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const absent: Partial<Record<FileRole, string>> = {};
    if (!dataset) absent.dataset = 'Choose the dataset file.';
    if (!predictions) absent.predictions = 'Choose the predictions file.';
    setMissing(absent);
    if (!dataset || !predictions || 'error' in dataset || 'error' in predictions) return;
    // Only a Chart-HQA export has a decline rate: a baseline chosen before switching format stays unsent.
    const sentBaseline = format === 'chart-hqa' ? baseline : null;
    if (sentBaseline && 'error' in sentBaseline) return;
    score.mutate({ format, rule, dataset, predictions, ...(sentBaseline ? { baseline: sentBaseline } : {}) });
  };

  const serverMessage = score.isError ? errorMessage(score.error) : null;
  const serverFile = serverMessage ? fileOfMessage(serverMessage, { dataset: dataset?.name, predictions: predictions?.name, baseline: baseline?.name }) : null;
  const errorFor = (role: FileRole, file: ChosenFile) =>
    missing[role] ?? (file && 'error' in file ? file.error : undefined) ?? (serverFile === role ? (serverMessage ?? undefined) : undefined);

  return (
    <section className="panel" aria-labelledby="score-file-heading" data-testid="score-file-panel">
      <h2 id="score-file-heading">Score a file</h2>
      <p className="muted small">
        A seed benchmark’s dataset and a model’s predictions for it, scored with that benchmark’s metrics (docs/benchmark-metrics.md). From the command
        line: <code>hqa score --format {format} --dataset FILE --predictions FILE</code>.
      </p>
      <form onSubmit={onSubmit} noValidate aria-labelledby="score-file-heading">
        <div className="form-grid">
          <Field label="Format">
            {(control) => (
              <select {...control} name="score-format" value={format} onChange={(event) => setFormat(ScoreFileFormatSchema.parse(event.target.value))}>
                {SCORE_FILE_FORMATS.map((f) => (
                  <option key={f} value={f}>
                    {FORMAT_LABELS[f]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Scoring rule for numbers">
            {(control) => (
              <select {...control} name="score-rule" value={rule} onChange={(event) => setRule(ScoringRuleSchema.parse(event.target.value))}>
                {SCORING_RULES.map((r) => (
                  <option key={r} value={r}>
                    {RULE_LABELS[r]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Dataset file" error={errorFor('dataset', dataset)}>
            {(control) => <input {...control} type="file" name="score-dataset" accept=".json,.jsonl,application/json" onChange={onDataset} />}
          </Field>
          <Field label="Predictions file" error={errorFor('predictions', predictions)}>
            {(control) => <input {...control} type="file" name="score-predictions" accept=".json,.jsonl,application/json" onChange={onPredictions} />}
          </Field>
          {format === 'chart-hqa' && (
            <Field label="Baseline predictions (optional: the factual questions, for the decline rate)" error={errorFor('baseline', baseline)}>
              {(control) => <input {...control} type="file" name="score-baseline" accept=".json,.jsonl,application/json" onChange={onBaseline} />}
            </Field>
          )}
        </div>
        <div className="form-actions">
          <SubmitButton pending={score.isPending} pendingLabel="Scoring…">
            Score
          </SubmitButton>
          {score.isError && serverFile === null && <ActionError error={score.error} />}
        </div>
      </form>
      {score.isSuccess && <ScoreReportView report={score.data} />}
    </section>
  );
}
