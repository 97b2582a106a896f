import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

/**
 * A chart spec run through Vega-Lite and Vega as the browser and the server run it, without
 * drawing: its scene graph (where each mark landed) and its scales, for tests of the specs.
 */

export type SceneItem = {
  datum?: Record<string, unknown>;
  strokeWidth?: number;
  stroke?: string;
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  startAngle?: number;
  endAngle?: number;
};
type SceneNode = SceneItem & { name?: string; items?: SceneNode[] };

export interface DrawnSpec {
  /** The items of the mark named `name` (Vega-Lite's `<layer name>_marks`, `layer_<i>_marks`), anywhere in the scene. */
  marks(name: string): SceneItem[];
  /** The domain of a scale (`x`, `y`) as drawn: nice ends included. */
  domain(scale: string): number[];
  /** The range of a scale (`x`, `y`) in pixels: for a value axis, the plot's extent along it. */
  range(scale: string): number[];
}

type ScaleFunction = { domain: () => number[]; range: () => number[] };

export async function drawSpec(spec: TopLevelSpec): Promise<DrawnSpec> {
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  await view.runAsync();
  // vega-typings type neither the scene graph nor a scale's domain.
  const root = (view.scenegraph() as unknown as { root: SceneNode }).root;
  const scales = new Map(
    ['x', 'y'].flatMap((name) => {
      if (!hasScale(view, name)) return [];
      const scale = view.scale(name) as unknown as ScaleFunction;
      return [[name, { domain: scale.domain(), range: scale.range() }] as const];
    }),
  );
  view.finalize();
  const scale = (name: string) => {
    const found = scales.get(name);
    if (!found) throw new Error(`no scale ${name}`);
    return found;
  };
  return { marks: (name) => itemsOf(root, name), domain: (name) => scale(name).domain, range: (name) => scale(name).range };
}

function hasScale(view: View, name: string): boolean {
  try {
    return view.scale(name) !== undefined;
  } catch {
    return false;
  }
}

function itemsOf(node: SceneNode, name: string): SceneItem[] {
  if (node.name === name) return node.items ?? [];
  return (node.items ?? []).flatMap((child) => itemsOf(child, name));
}
