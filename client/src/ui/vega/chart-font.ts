import robotoBoldUrl from '@expo-google-fonts/roboto/700Bold/Roboto_700Bold.ttf?url';
import robotoRegularUrl from '@expo-google-fonts/roboto/400Regular/Roboto_400Regular.ttf?url';
import { CHART_FONT } from '@shared/chart-spec/chart-style';

let fontsLoaded: Promise<void> | null = null;

/** Vega measures labels as it lays out: the chart font must be there first, or the layout is off. */
export function loadChartFont(): Promise<void> {
  fontsLoaded ??= Promise.all(
    [
      { url: robotoRegularUrl, weight: '400' },
      { url: robotoBoldUrl, weight: '700' },
    ].map(async ({ url, weight }) => {
      const face = new FontFace(CHART_FONT, `url(${url})`, { weight });
      await face.load();
      document.fonts.add(face);
    }),
  ).then(
    () => undefined,
    // Without Roboto the chart still draws, in a fallback font.
    () => undefined,
  );
  return fontsLoaded;
}
