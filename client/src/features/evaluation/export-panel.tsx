import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { exportApi } from '@shared/api/export';
import { EXPORT_FORMATS, type ExportFormat } from '@shared/export/chart-hqa';
import { call, download, errorMessage } from '../../api/http';
import { queryKeys } from '../../api/query-keys';
import { LoadError } from '../../ui/error-messages';

/** The page's formats: the streamed files, and the Hugging Face dataset folder as a zip. */
type PageFormat = ExportFormat | 'hf-dataset';

const FORMAT_LABELS: Record<PageFormat, string> = {
  'chart-hqa': 'Chart-HQA JSON (stats + items)',
  chartqa: 'ChartQA question file ([{imgname, query, label}])',
  jsonl: 'JSON lines (one item per line)',
  pairs: 'Judgement pairs, ChartBench JSON lines (a true and a false assertion per numeric item, scored by Acc+)',
  'hf-dataset': 'Hugging Face dataset, zipped (metadata.jsonl, images/, README.md: an imagefolder to upload with the datasets library)',
};

const PAGE_FORMATS: readonly PageFormat[] = [...EXPORT_FORMATS, 'hf-dataset'];

/** Whether an export would hold anything; refetched with the overview's figures as items are decided. */
function useExportStatus() {
  return useQuery({ queryKey: queryKeys.exportStatus(), queryFn: () => call(exportApi.status) });
}

/** A download is a POST (it is audited in the caller's name), fetched and then saved by the browser. */
function downloadExport(format: PageFormat, full: boolean): Promise<void> {
  if (format === 'hf-dataset') return download(exportApi.hfDataset, { body: {} });
  return download(exportApi.download, { body: { format, full } });
}

/**
 * The dataset's download, in every format `hqa export` writes (the Hugging Face folder as a zip).
 * With no accepted items there is no download: the page says why, in the words the CLI refuses with.
 */
export function ExportPanel() {
  const [format, setFormat] = useState<PageFormat>('chart-hqa');
  const [full, setFull] = useState(false);
  const status = useExportStatus();
  const noProvenance = format === 'chartqa' || format === 'pairs' || format === 'hf-dataset';
  const fetching = useMutation({ mutationFn: () => downloadExport(format, full && !noProvenance) });
  return (
    <form
      className="export-form"
      onSubmit={(event) => {
        event.preventDefault();
        fetching.mutate();
      }}
    >
      <p className="muted">Only accepted items, with reviewers’ corrections applied, in a fixed order with stable ids.</p>
      <fieldset>
        <legend>Format</legend>
        {PAGE_FORMATS.map((f) => (
          <label key={f}>
            <input type="radio" name="format" value={f} checked={format === f} onChange={() => setFormat(f)} /> {FORMAT_LABELS[f]}
          </label>
        ))}
      </fieldset>
      <label>
        <input type="checkbox" checked={full} disabled={noProvenance} onChange={(event) => setFull(event.target.checked)} /> Add provenance (edit, program,
        verifier, every review, run and model)
      </label>
      {status.isError && <LoadError what="whether there is anything to export" error={status.error} />}
      {status.data?.refusal != null ? (
        <p className="error" role="alert" data-testid="export-refusal">
          Export refused: {status.data.refusal}.
        </p>
      ) : (
        <p>
          <button type="submit" className="primary" disabled={status.isPending || fetching.isPending} data-testid="export-download">
            {fetching.isPending ? 'Preparing the file…' : 'Download'}
          </button>
        </p>
      )}
      {fetching.isError && (
        <p className="error" role="alert" data-testid="export-error">
          The download failed: {errorMessage(fetching.error)}
        </p>
      )}
      <p className="muted">
        From the command line: <code>npm run --silent hqa -- export --out chart-hqa.json [--format …] [--full] [--images DIR]</code> (
        <code>--format hf-dataset --out DIR</code> writes the Hugging Face folder); score a model’s predictions with <code>hqa score</code>, or ask a model
        with <code>hqa eval</code> and import its predictions below.
      </p>
    </form>
  );
}
