import type { ChartType } from '../../shared/domain/chart-types';
import type { Layout } from './demo-layout';
import { at, pick, randInt, type Rng } from '../../shared/random';
import type { Theme } from './demo-themes';

/** The words around a demo chart: its title, axis labels and label-column header. */

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

export function titleOf(rng: Rng, theme: Theme, layout: Layout): string {
  const subject = pick(rng, theme.subjects);
  const year = randInt(rng, 2018, 2023);
  const span = layout.years.length > 0 ? `, ${at(layout.years, 0)} to ${at(layout.years, layout.years.length - 1)}` : '';
  const by = (noun: string) => `${subject} by ${noun}`;
  switch (layout.shape) {
    case 'entity':
      return `${theme.entities.ordered || theme.plainTitle ? subject : by(theme.entities.noun)}, ${year}`;
    case 'time':
      return `${subject} ${theme.focusPrep} ${layout.focus ?? ''}${span}`;
    case 'time-entity':
      return `${by(theme.entities.noun)}${span}`;
    case 'entity-facet':
      return `${by(`${theme.entities.noun} and ${layout.seriesNoun}`)}, ${year}`;
    case 'facet-entity':
      return `${by(layout.rowPool?.noun ?? 'group')}, ${year}`;
    case 'entity-year':
      return layout.years.length === 2 ? `${by(theme.entities.noun)}, ${layout.years.join(' and ')}` : `${by(theme.entities.noun)}${span}`;
    case 'entity-measure':
      return `${subject}, ${year}`;
  }
}

export function axisLabels(type: ChartType, theme: Theme, layout: Layout): [string, string] {
  if (type === 'pie' || (type === 'other' && layout.shape === 'entity')) return ['', ''];
  if (layout.shape === 'entity-measure') return [at(layout.series, 0), at(layout.series, 1)];
  const category = layout.time === 'years' ? 'Year' : layout.time === 'months' ? 'Month' : capitalize(layout.rowPool?.noun ?? '');
  return type === 'horizontal_bar' ? [theme.valueHeader, category] : [category, theme.valueHeader];
}

export function labelHeaderOf(rng: Rng, theme: Theme, layout: Layout): string {
  const style = rng();
  if (style < 0.65) return 'Characteristic';
  if (style < 0.85) return 'Entity';
  if (layout.time === 'years') return 'Year';
  if (layout.time === 'months') return 'Month';
  return theme.countries && layout.rowPool === theme.entities ? 'Country' : 'Characteristic';
}
