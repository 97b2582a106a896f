import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { CHART_TYPES, ChartTypeSchema, type ChartType } from '../../shared/domain/chart-types';
import { ProposalTextSchema } from '../../shared/api/pool';
import { countSeeds, groupMemberChartTypes, insertProposal } from './pool-queries';

/**
 * The hand-written group-scope seeds (`prompts/group-seeds.json`): proposals for questions over
 * a chart group, whose assumption edits one chart so the relation the question reads between
 * the charts changes. They are chart-type agnostic ("the value the question asks about in one
 * chart"): each is entered once per chart type that some group's chart has, as a proposal of
 * that type (the type of the chart it edits). A database with no group gets none, so pools
 * without multi-chart questions stay as they were.
 */

const FILE = new URL('../../prompts/group-seeds.json', import.meta.url);

const GroupSeedsSchema = z.array(ProposalTextSchema).min(1).max(20);

let cache: string[] | null = null;

/** The seeds, checked: 1–20 proposals of 10–400 characters. Errors name the file. */
export function groupSeedTexts(): string[] {
  if (cache === null) {
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(fileURLToPath(FILE), 'utf8')) as unknown;
    } catch (error) {
      throw new Error(`prompts/group-seeds.json: cannot be read as JSON (${error instanceof Error ? error.message : String(error)})`);
    }
    const parsed = GroupSeedsSchema.safeParse(data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`prompts/group-seeds.json${issue?.path.length ? `[${issue.path.join('.')}]` : ''}: ${issue?.message ?? 'invalid'}`);
    }
    cache = parsed.data;
  }
  return [...cache];
}

/**
 * Enters the group seeds for each of `chartTypes` (default: every type a group's chart has)
 * that has no group seed yet; the number added. Call inside or outside a transaction.
 */
export function ensureGroupSeedProposals(db: Db, chartTypes?: readonly ChartType[]): number {
  const types = chartTypes ?? groupMemberChartTypes(db).map((type) => ChartTypeSchema.parse(type));
  let added = 0;
  db.transaction(() => {
    for (const chartType of CHART_TYPES) {
      if (!types.includes(chartType) || countSeeds(db, chartType, 'group') > 0) continue;
      for (const text of groupSeedTexts()) {
        insertProposal(db, { chart_type: chartType, scope: 'group', text, origin: 'seed', status: 'active' });
        added++;
      }
    }
  })();
  return added;
}
