import type { ReactNode } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { roleAtLeast } from '@shared/domain/roles';
import type { ChartDetail, FactualQa } from '@shared/api/charts';
import { formatTime } from '../../ui/format';
import { useCurrentUser } from '../../auth/session';
import { ShortcutHint } from '../../keyboard/shortcut-hint';
import { useHotkeys } from '../../keyboard/use-hotkeys';
import { DrawnChartNote } from '../../ui/drawn-chart-note';
import { BackLink, RecordPage } from '../../ui/record-page';
import { ChartOriginal } from './chart-original';
import { ChartTypeControl } from './chart-type-control';
import { chartImageUrl, useChart } from '../../api/charts-api';
import { DataTableView } from '../../views/data-table-view';
import { PrintedTotalsWarning } from '../../views/printed-totals-warning';
import { ChartGroupLinks } from './chart-group-links';
import { FactualQaTable } from './factual-qa-table';
import { listPathFrom } from './link-state';
import { TryItPanel } from './try-it/try-it-panel';
import { WriteItemSection } from './write-item/write-item-section';
import { TableEditorSection } from './table-editor/table-editor-section';

const SHORTCUTS = [{ keys: ['Esc'], action: 'back to the list' }];

function parseId(param: string | undefined): number | null {
  const id = Number(param);
  return Number.isInteger(id) && id > 0 ? id : null;
}

/** The chart's one original on the page: shown beside its redraw in the table editor. */
function ChartImage({ chart }: { chart: ChartDetail }) {
  if (chart.image_missing) {
    // A benchmark chart whose image was not imported: there is nothing to show (nor to draw, without a table).
    return (
      <figure className="chart-figure">
        <p className="muted" data-testid="image-missing">
          Image missing: the import found no image for this chart (import again with <code>--images DIR</code>).
        </p>
      </figure>
    );
  }
  return (
    <ChartOriginal
      src={chartImageUrl(chart)}
      alt={`Chart: ${chart.title ?? chart.imgname}`}
      testId="chart-image"
      caption={chart.has_image ? 'Original' : <DrawnChartNote />}
    />
  );
}

function ChartView({ detail, qas, back }: { detail: ChartDetail; qas: FactualQa[]; back: ReactNode }) {
  const user = useCurrentUser();
  const heading = detail.title ?? detail.imgname;
  return (
    <section className="page chart-page">
      <title>{`${heading} · Chart-HQA`}</title>
      <header className="page-header">
        <div>
          {back}
          <h1>{heading}</h1>
        </div>
        <ShortcutHint shortcuts={SHORTCUTS} />
      </header>

      {/* The table and the image first: comparing them is what a curator comes here to do. */}
      <TableEditorSection key={`table-${detail.id}`} chartId={detail.id} chartType={detail.chart_type} typeSource={detail.type_source} canEdit={roleAtLeast(user.role, 'curator')} original={<ChartImage chart={detail} />} />

      <div className="chart-details">
        <dl className="meta">
          <dt>imgname</dt>
          <dd className="mono">{detail.imgname}</dd>
          <dt>Split</dt>
          <dd>{detail.split}</dd>
          <dt>Type</dt>
          <dd>
            <ChartTypeControl chart={detail} canEdit={roleAtLeast(user.role, 'curator')} />
          </dd>
          <dt>Table</dt>
          <dd>
            {detail.rows} rows × {detail.series} series
          </dd>
          <dt>Questions</dt>
          <dd>{detail.qa_count}</dd>
          <ChartGroupLinks chartId={detail.id} split={detail.split} />
          <dt>Source file</dt>
          <dd className="mono small">{detail.source_file}</dd>
          <dt>Imported</dt>
          <dd>
            <time dateTime={detail.imported_at}>{formatTime(detail.imported_at)}</time>
          </dd>
          <dt>Updated</dt>
          <dd>
            <time dateTime={detail.updated_at}>{formatTime(detail.updated_at)}</time>
          </dd>
        </dl>
      </div>

      <section aria-labelledby="data-table-heading">
        <h2 id="data-table-heading">Data table</h2>
        {detail.data_table === null ? (
          // A benchmark chart known by its image only: nothing to compute over until a table is extracted or typed in.
          <p className="muted" data-testid="no-table">
            No table (image only){detail.image_missing ? '; image missing: the import found no image for it' : ''}.
          </p>
        ) : (
          <>
            <DataTableView table={detail.data_table} />
            <p className="muted small">
              Cells show the source text; <span className="cell-missing legend">shaded</span> cells are missing values
              (<code>nan</code>, <code>-</code>)
              {detail.data_table.rows.some((row) => row.estimated?.some(Boolean)) && (
                <>
                  ; <span className="cell-estimated legend">dotted</span> cells were estimated from the axis, not printed on the chart
                </>
              )}
              .
            </p>
            <PrintedTotalsWarning table={detail.data_table} chartType={detail.chart_type} />
          </>
        )}
      </section>

      {detail.data_table !== null && <TryItPanel key={detail.id} table={detail.data_table} chartType={detail.chart_type} />}

      <section aria-labelledby="qas-heading">
        <h2 id="qas-heading">Factual questions ({qas.length})</h2>
        <FactualQaTable qas={qas} />
      </section>

      <WriteItemSection chartId={detail.id} chartType={detail.chart_type} qas={qas} />
    </section>
  );
}

export function ChartPage() {
  const id = parseId(useParams().id);
  const location = useLocation();
  const navigate = useNavigate();
  const listPath = listPathFrom(location.state);
  const chart = useChart(id);

  useHotkeys({ Escape: () => void navigate(listPath) });

  const back = <BackLink to={listPath}>Charts</BackLink>;
  return (
    <RecordPage noun="chart" id={id} query={chart} back={back} loading="Loading chart…">
      {({ chart: detail, qas }) => <ChartView detail={detail} qas={qas} back={back} />}
    </RecordPage>
  );
}
