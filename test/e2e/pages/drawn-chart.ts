import type { Locator } from 'playwright-core';

/** A box on the screen, in CSS pixels. */
export type ScreenBox = { x: number; y: number; width: number; height: number };

/**
 * A chart drawn in the browser from a table (the counterfactual, or the original drawn in its
 * place): Vega's SVG, read as a reviewer sees it. Vega names each axis for assistive
 * technology ("Y-axis titled 'Value' for a linear scale …"), which says which axis holds values.
 */
export class DrawnChart {
  constructor(readonly root: Locator) {}

  /** Waits until the chart is drawn. */
  async drawn(): Promise<this> {
    await this.root.locator('xpath=self::*[@data-state="drawn"]').waitFor();
    return this;
  }

  /** The axis over a linear scale, `X` or `Y`: which way the value axis runs tells which way the bars do. */
  async valueAxisDirection(): Promise<string> {
    const label = (await this.valueAxis().getAttribute('aria-label')) ?? '';
    return label.slice(0, 1);
  }

  /** The ends of the value axis's scale, as Vega names them ("… for a linear scale with values from 0 to 120"). */
  async valueAxisEnds(): Promise<[number, number]> {
    const label = (await this.valueAxis().getAttribute('aria-label')) ?? '';
    const ends = /values from (\S+) to (\S+)$/.exec(label);
    if (!ends?.[1] || !ends[2]) throw new Error(`no value range in "${label}"`);
    return [printedNumber(ends[1]), printedNumber(ends[2])];
  }

  /** The numbers the value axis's ticks print. */
  async valueTicks(): Promise<number[]> {
    return (await this.valueAxis().locator('.role-axis-label text').allTextContents()).map(printedNumber);
  }

  /** Where the marks drawn with a visible outline (changed by the edit) are on the screen. */
  async outlinedMarks(): Promise<ScreenBox[]> {
    return this.root.locator('.edited_outline_marks path').evaluateAll((paths) =>
      paths
        .filter((path) => Number.parseFloat(path.getAttribute('stroke-width') ?? '0') > 0)
        .map((path) => {
          const { x, y, width, height } = path.getBoundingClientRect();
          return { x, y, width, height };
        }),
    );
  }

  /**
   * The font size the value axis's first label shows at on the screen, in CSS pixels: its size
   * in the drawing times the scale the drawing is shown at.
   */
  async shownLabelFontSize(): Promise<{ fontSize: number; boxHeight: number }> {
    return this.valueAxis()
      .locator('.role-axis-label text')
      .first()
      .evaluate((text) => {
        if (!(text instanceof SVGGraphicsElement)) throw new Error('not an SVG text');
        const matrix = text.getScreenCTM();
        const scale = matrix ? Math.hypot(matrix.a, matrix.b) : 0;
        return { fontSize: Number.parseFloat(getComputedStyle(text).fontSize) * scale, boxHeight: text.getBoundingClientRect().height };
      });
  }

  private valueAxis(): Locator {
    return this.root.locator('[aria-roledescription="axis"][aria-label*="linear scale"]');
  }
}

/** A number as Vega prints it: minus signs as U+2212, thousands with commas. */
function printedNumber(text: string): number {
  return Number(text.replace('\u2212', '-').replace(/,/g, ''));
}
