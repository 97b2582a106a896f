import { useState, type MouseEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { z } from 'zod';
import type { TriageChart, TypeStateCounts } from '@shared/api/chart-types';
import { chartsApi } from '@shared/api/charts';
import { endpointUrl } from '@shared/api/endpoint';
import { CHART_TYPE_LABELS, type ChartType } from '@shared/domain/chart-types';
import { useChartFacets } from '../../api/charts-api';
import { errorMessage } from '../../api/http';
import { ShortcutHint } from '../../keyboard/shortcut-hint';
import { useHotkeys } from '../../keyboard/use-hotkeys';
import { LoadError } from '../../ui/error-messages';
import { FilterSelect } from '../../ui/filter-select';
import { useDecideType, useTriage, useUndoType } from './chart-types-api';
import { currentChart, TRIAGE_KEYS, TYPE_KEYS, typeForKey, upcoming } from './triage-queue';
import { VisionJobControl } from './vision-job-control';

/** Thumbnails of the charts that come next. */
const UPCOMING_SHOWN = 8;

const SHORTCUTS = [
  { keys: ['1–9'], action: 'this type' },
  { keys: [TRIAGE_KEYS.confirm], action: 'confirm the suggested type' },
  { keys: [TRIAGE_KEYS.skip], action: 'skip' },
  { keys: [TRIAGE_KEYS.undo], action: 'undo the last decision' },
];

/** One decision of this session, newest last: what `u` takes back. */
type Decision = { id: number; name: string; from: ChartType; to: ChartType; at: number };

const imageOf = (id: number) => endpointUrl(chartsApi.image, { params: { id } });
const nameOf = (chart: TriageChart) => `${chart.split}/${chart.imgname}`;

function Counts({ counts, decided }: { counts: TypeStateCounts; decided: number }) {
  const confirmed = counts.annotation + counts.questions + counts.vision + counts.curator;
  return (
    <dl className="figures" data-testid="triage-counts">
      <div>
        <dt>Unconfirmed</dt>
        <dd data-testid="count-unconfirmed">{counts.unconfirmed}</dd>
      </div>
      <div title="Charts with an image whose type is confirmed: by annotation, by their questions' words, by the vision model, by a curator">
        <dt>Confirmed</dt>
        <dd data-testid="count-confirmed">
          {confirmed}{' '}
          <span className="muted small">
            ({counts.annotation} annotation, {counts.questions} questions, {counts.vision} vision, {counts.curator} curators)
          </span>
        </dd>
      </div>
      <div>
        <dt>Decided here</dt>
        <dd data-testid="count-session">{decided}</dd>
      </div>
    </dl>
  );
}

/**
 * Chart-type triage (curators): the charts whose type only their table suggests, though they
 * have an image that may show another, one at a time with the next ones as thumbnails. A key per
 * type decides it, Enter confirms the suggested type, s skips, u undoes; each decision is the
 * chart page's own (audited, every client told), and the counts follow other curators live.
 */
export function ChartTypeTriagePage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const split = searchParams.get('split') ?? '';
  const triage = useTriage(split);
  const facets = useChartFacets();
  const decide = useDecideType();
  const undo = useUndoType();
  const [skipped, setSkipped] = useState<ReadonlySet<number>>(new Set());
  const [pinned, setPinned] = useState<number | null>(null);
  const [decisions, setDecisions] = useState<Decision[]>([]);

  // A chart decided after the list was fetched is still in it: hidden until the next fetch.
  const hidden = new Set(decisions.filter((decision) => decision.at > triage.dataUpdatedAt).map((decision) => decision.id));
  const charts = (triage.data?.charts ?? []).filter((chart) => !hidden.has(chart.id));
  const current = currentChart(charts, skipped, pinned);
  const next = upcoming(charts, skipped, current, UPCOMING_SHOWN);
  const busy = decide.isPending || undo.isPending;

  const decideAs = (chartType: ChartType) => {
    if (!current || busy) return;
    const { id, chart_type: from } = current;
    const name = nameOf(current);
    decide.mutate(
      { id, chartType },
      {
        onSuccess: () => {
          setDecisions((list) => [...list, { id, name, from, to: chartType, at: Date.now() }]);
          setPinned(null);
        },
      },
    );
  };
  const skip = () => {
    if (!current) return;
    setSkipped((ids) => new Set([...ids, current.id]));
    setPinned(null);
  };
  const undoLast = () => {
    const last = decisions.at(-1);
    if (!last || busy) return;
    undo.mutate(last.id, {
      onSuccess: () => {
        setDecisions((list) => list.slice(0, -1));
        setPinned(last.id);
      },
    });
  };
  useHotkeys({
    ...Object.fromEntries(TYPE_KEYS.map(({ key }) => [key, () => decideAs(typeForKey(key) ?? 'other')])),
    [TRIAGE_KEYS.confirm]: () => current && decideAs(current.chart_type),
    [TRIAGE_KEYS.skip]: skip,
    [TRIAGE_KEYS.undo]: undoLast,
  });
  /** A click leaves no focused button behind for Enter to press again on the next chart. */
  const clicked = (action: () => void) => (event: MouseEvent<HTMLButtonElement>) => {
    event.currentTarget.blur();
    action();
  };

  const splits = facets.data?.splits ?? [];
  const lastDecision = decisions.at(-1);

  return (
    <section className="page triage-page">
      <title>Chart types · Chart-HQA</title>
      <header className="page-header">
        <div>
          <h1>Chart types</h1>
          <Link to="/charts" className="small">
            Charts
          </Link>
        </div>
        <ShortcutHint shortcuts={SHORTCUTS} />
      </header>
      <p className="page-intro muted">
        Charts with an image whose type only their data table suggests: neither their questions’ words nor a vision model decided it, so the picture may
        show another type. Runs can leave them out (“Only charts whose type is confirmed”).
      </p>
      <div className="toolbar">
        <FilterSelect
          label="Split"
          name="split"
          value={split}
          schema={z.string()}
          allLabel="All splits"
          options={splits.map(({ split: name, count }) => ({ value: name, label: `${name} (${count})` }))}
          onChange={(value) => {
            setSearchParams(value ? { split: value } : {});
            setPinned(null);
          }}
        />
        <VisionJobControl split={split} />
      </div>

      {triage.isError && <LoadError what="the charts to triage" error={triage.error} />}
      {triage.isPending && <p className="muted">Loading…</p>}
      {triage.data && <Counts counts={triage.data.counts} decided={decisions.length} />}

      {triage.data && current === null && (
        <p className="empty" data-testid="triage-empty">
          No chart {split ? `of split ${split} ` : ''}has an unconfirmed type.
        </p>
      )}
      {current && (
        <div className="triage" data-testid="triage-chart" data-chart-id={current.id}>
          <figure className="chart-figure triage-figure">
            <img src={imageOf(current.id)} alt={`Chart: ${nameOf(current)}`} />
            <figcaption>
              <Link to={`/charts/${current.id}`} className="mono">
                {nameOf(current)}
              </Link>{' '}
              {current.title && <span>{current.title}</span>}{' '}
              <span className="muted small">
                table {current.rows}×{current.series}, {current.qa_count} {current.qa_count === 1 ? 'question' : 'questions'}
              </span>
            </figcaption>
          </figure>
          <div className="triage-keys">
            <p>
              Suggested from the table: <strong data-testid="triage-suggested">{CHART_TYPE_LABELS[current.chart_type]}</strong>{' '}
              <span className="muted small">
                (<kbd>{TRIAGE_KEYS.confirm}</kbd> confirms it)
              </span>
            </p>
            {current.vision_failure && (
              <p className="muted small" data-testid="triage-vision-failure">
                The vision model could not tell: {current.vision_failure}
              </p>
            )}
            <div className="type-keys" role="group" aria-label="Chart type">
              {TYPE_KEYS.map(({ key, type }) => (
                <button
                  key={type}
                  type="button"
                  className={type === current.chart_type ? 'primary' : undefined}
                  disabled={busy}
                  onClick={clicked(() => decideAs(type))}
                  data-testid={`type-key-${type}`}
                  aria-keyshortcuts={key}
                >
                  <kbd>{key}</kbd> {CHART_TYPE_LABELS[type]}
                </button>
              ))}
            </div>
            <p>
              <button type="button" onClick={clicked(skip)} aria-keyshortcuts={TRIAGE_KEYS.skip}>
                <kbd>{TRIAGE_KEYS.skip}</kbd> Skip
              </button>{' '}
              <button type="button" disabled={!lastDecision || busy} onClick={clicked(undoLast)} aria-keyshortcuts={TRIAGE_KEYS.undo}>
                <kbd>{TRIAGE_KEYS.undo}</kbd> Undo
              </button>
            </p>
            {decide.isError && <p className="error">Could not decide the type: {errorMessage(decide.error)}</p>}
            {undo.isError && <p className="error">Could not undo: {errorMessage(undo.error)}</p>}
            {lastDecision && (
              <p className="muted small" data-testid="triage-last">
                Last: <span className="mono">{lastDecision.name}</span> {CHART_TYPE_LABELS[lastDecision.from]} → {CHART_TYPE_LABELS[lastDecision.to]}
              </p>
            )}
          </div>
        </div>
      )}
      {next.length > 0 && (
        <ol className="triage-next" aria-label="Next charts">
          {next.map((chart) => (
            <li key={chart.id}>
              <button type="button" className="thumb" onClick={clicked(() => setPinned(chart.id))} title={`${nameOf(chart)}: suggested ${CHART_TYPE_LABELS[chart.chart_type]}`}>
                <img src={imageOf(chart.id)} alt={`Next: ${nameOf(chart)}`} loading="lazy" />
                <span className="small">
                  {CHART_TYPE_LABELS[chart.chart_type]}
                  {skipped.has(chart.id) ? ' · skipped' : ''}
                </span>
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
