import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Db } from '../../db/database';
import { createChartWriter } from '../charts/chart-queries';
import { createBenchmarkWriter } from '../import/benchmark-queries';
import { DEMO_GROUP_CHARTS, DEMO_GROUP_KEY, DEMO_GROUP_NAME, DEMO_GROUP_QUESTIONS, DEMO_IMAGE_ONLY_CHART, DEMO_IMAGE_ONLY_PNG, demoGroupLabel } from './demo-extras';
import { insertGroupQaOnce, insertImageOnlyChartOnce } from './demo-extras-queries';

export interface DemoExtrasReport {
  group_id: number;
  group_chart_ids: number[];
  image_only_chart_id: number;
  /** Rows this call wrote; all 0 on a second call. */
  charts_created: number;
  qas_added: number;
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/**
 * Adds the demo's multi-chart group (two charts with tables, grouped by a curator, four questions
 * over both) and its chart without a table to `split`, in one transaction. Idempotent: each row is
 * found by its name (chart imgname, group key, question text) and written only when missing.
 */
export function addDemoExtras(db: Db, split: string): DemoExtrasReport {
  const png = readFileSync(new URL(`./${DEMO_IMAGE_ONLY_PNG}`, import.meta.url));
  const charts = createChartWriter(db);
  const benchmark = createBenchmarkWriter(db);
  return db.transaction((): DemoExtrasReport => {
    let chartsCreated = 0;
    let qasAdded = 0;
    const chartIds = DEMO_GROUP_CHARTS.map((chart) => {
      const written = charts.write(
        {
          split,
          imgname: chart.imgname,
          title: chart.title,
          chart_type: chart.chart_type,
          type_source: 'annotation',
          type_evidence: null,
          table: chart.table,
          annotation: null,
          source_file: 'demo',
          content_hash: sha256(JSON.stringify([chart.title, chart.chart_type, chart.table])),
          image: null,
        },
        [],
      );
      if (written.outcome === 'created') chartsCreated++;
      return written.chartId;
    });
    const { groupId } = benchmark.writeGroup({ split, key: DEMO_GROUP_KEY, name: DEMO_GROUP_NAME, source: 'curator', chartIds });
    for (const question of DEMO_GROUP_QUESTIONS) {
      if (insertGroupQaOnce(db, { chartId: chartIds[0] as number, groupId, query: question.query, label: demoGroupLabel(question) })) qasAdded++;
    }
    const imageOnly = insertImageOnlyChartOnce(db, {
      split,
      imgname: DEMO_IMAGE_ONLY_CHART.imgname,
      title: DEMO_IMAGE_ONLY_CHART.title,
      chart_type: DEMO_IMAGE_ONLY_CHART.chart_type,
      png,
      sha256: sha256(png),
      question: DEMO_IMAGE_ONLY_CHART.question,
    });
    if (imageOnly.created) {
      chartsCreated++;
      qasAdded++;
    }
    return { group_id: groupId, group_chart_ids: chartIds, image_only_chart_id: imageOnly.chartId, charts_created: chartsCreated, qas_added: qasAdded };
  })();
}
