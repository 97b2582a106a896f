import { monthRun, orderKey } from '../../../shared/table/axis-order';
import { findLabelIndex, normalizeLabel } from '../../../shared/table/labels';
import type { TableFacts } from '../../../shared/table/table-facts';

/**
 * What an added row is called, in the chart's own terms: the next period on a time axis (a year
 * after the last, the next season, quarter or month), another of the same kind among named
 * labels (another country beside countries), "Other" for a chart of shares (the slice every
 * pie leaves for the rest). Null when nothing plausible is left: the planner then picks another
 * edit, which reads better than a placeholder such as "Category X".
 */
export function newRowLabel(facts: TableFacts): string | null {
  const labels = facts.table.rows.map((row) => row.label);
  const absent = (label: string) => findLabelIndex(labels, label) === -1;
  if (facts.timeAxis) return nextPeriod(labels);
  const month = nextMonth(labels);
  if (month !== null) return absent(month) ? month : null;
  const shares = facts.chartType === 'pie' || facts.rowWhole || facts.columns.some((column) => column.whole);
  const hasOther = labels.some((label) => /^others?\b|^all others?\b|^rest\b/.test(normalizeLabel(label)));
  if (shares && !hasOther) return 'Other';
  const kind = labelKindOf(labels);
  if (kind !== null) return kind.labels.find((label) => absent(label) && !kind.taken(labels, label)) ?? null;
  // A made-up "Other countries" beside risk factors, or "Other" beside brands that are not shares,
  // reads as nonsense to a reviewer: without a kind of label to take one from, no row is added.
  return null;
}

/** The period after the latest on an axis of years, numbers, seasons or quarters, written as the axis writes them. */
function nextPeriod(labels: readonly string[]): string | null {
  const texts = labels.map((label) => label.trim().replace(/\*+$/, ''));
  const keys = labels.map((label) => orderKey(label) ?? 0).sort((a, b) => a - b);
  const last = keys[keys.length - 1] ?? 0;
  if (texts.every((text) => /^\d+$/.test(text))) {
    const steps = keys.slice(1).map((key, i) => key - (keys[i] ?? key)).filter((step) => step > 0);
    const step = Math.min(...steps);
    return Number.isInteger(step) ? String(last + step) : null;
  }
  if (texts.every((text) => /^\d{4}\/\d{2}$/.test(text))) return `${last + 1}/${String((last + 2) % 100).padStart(2, '0')}`;
  if (texts.every((text) => /^\d{4}\/\d{4}$/.test(text))) return `${last + 1}/${last + 2}`;
  if (texts.every((text) => /^Q[1-4]\s+\d{4}$/i.test(text))) {
    const year = Math.floor(last);
    const quarter = Math.round((last - year) * 4) + 1;
    return quarter === 4 ? `Q1 ${year + 1}` : `Q${quarter + 1} ${year}`;
  }
  // Mixed axes ("2017", "Q1 2018") have no single next step.
  return null;
}

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The month after the latest on an axis of months in order ("Jan" … "Jun", or "Jan 2020" …), written as the axis writes them. */
function nextMonth(labels: readonly string[]): string | null {
  const run = monthRun(labels);
  if (run === null) return null;
  const latestIndex = run.ascending ? run.positions.length - 1 : 0;
  const latest = run.positions[latestIndex] ?? 0;
  const sample = labels[latestIndex]?.trim().replace(/\*+$/, '').split(/\s+/)[0] ?? '';
  const next = MONTH_NAMES[(latest + 1) % 12] ?? '';
  const name = sample.replace(/\.$/, '').length <= 4 ? next.slice(0, 3) : next;
  return run.withYear ? `${name} ${Math.floor((latest + 1) / 12)}` : name;
}

interface LabelKind {
  /** Candidates in the order a new row takes them. */
  labels: readonly string[];
  /** Whether the table already has `label` under another name ("U.S." for "United States"). */
  taken: (labels: readonly string[], label: string) => boolean;
}

/** Other names a table writes a candidate as. */
const ALIASES: Record<string, readonly string[]> = {
  'United States': ['u.s.', 'u.s', 'us', 'usa', 'united states of america', 'america'],
  'United Kingdom': ['uk', 'u.k.', 'great britain', 'britain', 'england'],
  'South Korea': ['korea', 'republic of korea', 'korea, rep.'],
  Russia: ['russian federation'],
};

const COUNTRIES = [
  'Canada', 'Germany', 'France', 'Japan', 'Brazil', 'Italy', 'Spain', 'Mexico', 'India', 'Australia', 'China', 'United States',
  'United Kingdom', 'South Korea', 'Netherlands', 'Sweden', 'Norway', 'Poland', 'Turkey', 'Argentina', 'Chile', 'Colombia',
  'Peru', 'Indonesia', 'Thailand', 'Vietnam', 'Philippines', 'Malaysia', 'Egypt', 'Nigeria', 'Kenya', 'South Africa',
  'Morocco', 'Ghana', 'Ethiopia', 'Pakistan', 'Bangladesh', 'Iran', 'Saudi Arabia', 'Israel', 'Greece', 'Portugal', 'Ireland',
  'Austria', 'Belgium', 'Switzerland', 'Denmark', 'Finland', 'Czechia', 'Hungary', 'Romania', 'Ukraine', 'Russia', 'New Zealand',
  'Singapore', 'Ecuador', 'Venezuela', 'Uruguay', 'Bolivia', 'Cuba', 'Slovenia', 'Albania', 'Benin', 'Sudan', 'Cameroon',
  'Nicaragua', 'Lesotho', 'Angola', 'Azerbaijan', 'Croatia', 'Serbia', 'Bulgaria', 'Tunisia', 'Algeria', 'Sri Lanka', 'Nepal',
] as const;

const US_STATES = [
  'California', 'Texas', 'Florida', 'New York', 'Illinois', 'Pennsylvania', 'Ohio', 'Georgia', 'Michigan', 'North Carolina',
  'New Jersey', 'Virginia', 'Washington', 'Arizona', 'Massachusetts', 'Tennessee', 'Indiana', 'Missouri', 'Maryland', 'Colorado',
  'Wisconsin', 'Minnesota', 'Oregon', 'Nevada', 'Utah', 'Iowa', 'Kansas', 'Alabama', 'Louisiana', 'Kentucky',
] as const;

const PLATFORMS = ['Facebook', 'YouTube', 'Instagram', 'WhatsApp', 'TikTok', 'Snapchat', 'Twitter', 'LinkedIn', 'Pinterest', 'Reddit'] as const;

const REGIONS = ['Europe', 'Asia', 'Africa', 'North America', 'Latin America', 'Middle East', 'Oceania', 'South America'] as const;

const KNOWN_KINDS: readonly (readonly string[])[] = [COUNTRIES, US_STATES, PLATFORMS, REGIONS];

/**
 * The kind of the table's labels, when at least half of them (and two) are of one known kind:
 * "Low income" or "World" among countries does not make them something else.
 */
function labelKindOf(labels: readonly string[]): LabelKind | null {
  const keys = labels.map(labelKey);
  for (const kind of KNOWN_KINDS) {
    const known = new Set(kind.flatMap((label) => [label.toLowerCase(), ...(ALIASES[label] ?? [])]));
    const hits = keys.filter((key) => known.has(key)).length;
    if (hits >= 2 && hits * 2 >= labels.length) {
      return {
        labels: kind,
        taken: (present, label) => (ALIASES[label] ?? []).some((alias) => present.map(labelKey).includes(alias)),
      };
    }
  }
  return null;
}

/** A label as the kind lists write it: lower case, without footnote marks or a parenthesised note ("Michelin (France)"). */
function labelKey(label: string): string {
  return normalizeLabel(label).replace(/\s*\(.*\)$/, '');
}
