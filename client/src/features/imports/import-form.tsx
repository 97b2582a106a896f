import { useState, type FormEvent } from 'react';
import { IMPORT_FORMATS, type ImportFormat } from '@shared/domain/benchmark-fields';
import type { ImportProgress } from '@shared/api/splits';
import { errorMessage } from '../../api/http';
import { ImportReportView } from './import-report';
import { useImportProgress, useUploadSplit } from './splits-api';

const FORMAT_LABELS: Record<ImportFormat, string> = {
  chartqa: 'ChartQA split (tables/, question files)',
  multichartqa: 'MultiChartQA (data/<group>/…)',
  chartbench: 'ChartBench (*.jsonl)',
  charxiv: 'CharXiv (data/ files)',
};

const PHASE_LABELS: Record<ImportProgress['phase'], string> = { upload: 'Uploading', unzip: 'Unpacking', import: 'Importing charts' };

function ProgressBar({ progress }: { progress: ImportProgress | null }) {
  if (progress === null) return <p className="muted">Starting…</p>;
  const { phase, done, total } = progress;
  return (
    <div data-testid="import-progress" data-phase={phase}>
      <label>
        {PHASE_LABELS[phase]}: {total !== null ? `${done} of ${total}` : `${done}`} {phase === 'upload' ? 'bytes' : phase === 'unzip' ? 'files' : 'charts'}{' '}
        <progress max={total ?? undefined} value={total !== null ? done : undefined} />
      </label>
    </div>
  );
}

/** Upload a split as a .zip, in any layout `hqa import` reads, with the same report. */
export function ImportForm() {
  const [file, setFile] = useState<File | null>(null);
  const [format, setFormat] = useState<ImportFormat | ''>('');
  const [split, setSplit] = useState('');
  const [uploadId, setUploadId] = useState<string | null>(null);
  const upload = useUploadSplit();
  const progress = useImportProgress(uploadId);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    const id = crypto.randomUUID();
    setUploadId(id);
    upload.mutate({ file, format: format || undefined, split: split.trim() || undefined, uploadId: id });
  };

  return (
    <section aria-labelledby="import-heading">
      <h2 id="import-heading">Import a split</h2>
      <form onSubmit={onSubmit} className="form-row">
        <label className="field">
          <span>Zip file</span>
          <input type="file" accept=".zip,application/zip" required onChange={(e) => setFile(e.target.files?.[0] ?? null)} data-testid="import-file" />
        </label>
        <label className="field">
          <span>Format</span>
          <select value={format} onChange={(e) => setFormat(e.target.value as ImportFormat | '')}>
            <option value="">Detect from the layout</option>
            {IMPORT_FORMATS.map((f) => (
              <option key={f} value={f}>
                {FORMAT_LABELS[f]}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Split name (optional)</span>
          <input
            value={split}
            onChange={(e) => setSplit(e.target.value)}
            maxLength={100}
            pattern="[\w.\-]+"
            placeholder="from the files"
            aria-describedby="import-split-hint"
          />
          <span className="field-hint" id="import-split-hint" data-testid="import-split-hint">
            Only names the split in lists, runs and exports (empty: the question files’ name, else the zip’s). It never changes which files are read:
            every question file in the zip (<code>&lt;name&gt;_human.json</code>, <code>&lt;name&gt;_augmented.json</code>) is imported.
          </span>
        </label>
        <button type="submit" className="primary" disabled={!file || upload.isPending}>
          {upload.isPending ? 'Importing…' : 'Import'}
        </button>
      </form>
      {/* Kept after the answer: the last step shows what was done (the import's events arrive just after it). */}
      {uploadId !== null && !upload.isError && (upload.isPending || progress !== null) && <ProgressBar progress={progress} />}
      {upload.isError && (
        <p className="error" role="alert">
          Import refused: {errorMessage(upload.error)}
        </p>
      )}
      {upload.isSuccess && <ImportReportView format={upload.data.format} report={upload.data.report} />}
    </section>
  );
}
