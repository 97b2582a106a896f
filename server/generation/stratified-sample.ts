/** A factual QA as the sampler sees it: ids only, so 100,000 of them cost little. */
export interface SampleQa {
  id: number;
  chartId: number;
  chartType: string;
}

function shuffleInPlace<T>(list: T[], random: () => number): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j] as T, list[i] as T];
  }
  return list;
}

/** Takes one from each list per turn, in list order, until `limit` or every list is spent. */
function roundRobin<T>(lists: readonly (readonly T[])[], limit: number): T[] {
  const out: T[] = [];
  for (let turn = 0; out.length < limit; turn++) {
    let took = false;
    for (const list of lists) {
      const next = list[turn];
      if (next === undefined) continue;
      took = true;
      out.push(next);
      if (out.length === limit) break;
    }
    if (!took) break;
  }
  return out;
}

/**
 * Up to `limit` QAs spread over the data: round-robin over chart types, within a type
 * round-robin over its charts, within a chart its QAs one after another — each order shuffled
 * by `random`. A type or chart that runs out drops out of the turn, so a small type is taken
 * whole before a big one is. The result depends only on the set of QAs and the random stream,
 * never on the order they come in, so a run re-planned after a crash plans the same.
 */
export function stratifiedSample<T extends SampleQa>(qas: readonly T[], limit: number, random: () => number): T[] {
  if (limit <= 0) return [];
  const byType = new Map<string, Map<number, T[]>>();
  for (const qa of qas) {
    let charts = byType.get(qa.chartType);
    if (!charts) byType.set(qa.chartType, (charts = new Map()));
    let chartQas = charts.get(qa.chartId);
    if (!chartQas) charts.set(qa.chartId, (chartQas = []));
    chartQas.push(qa);
  }
  const types = shuffleInPlace([...byType.keys()].sort(), random);
  const perType = types.map((type) => {
    const charts = [...(byType.get(type) ?? new Map<number, T[]>()).entries()].sort(([a], [b]) => a - b);
    const chartQueues = shuffleInPlace(charts, random).map(([, list]) => shuffleInPlace(list.sort((a, b) => a.id - b.id), random));
    return roundRobin(chartQueues, limit);
  });
  return roundRobin(perType, limit);
}
