import { useState, type ReactNode } from 'react';

/**
 * A chart's stored image at a size to compare with its redraw, with a zoom to its natural size
 * (a 30-row chart's labels are unreadable shrunk to fit) and a link to the file itself.
 */
export function ChartOriginal({ src, alt, testId, caption }: { src: string; alt: string; testId: string; caption?: ReactNode }) {
  const [zoomed, setZoomed] = useState(false);
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (failedSrc === src) {
    return (
      <figure className="chart-figure">
        <p className="error" role="alert">
          The image could not be loaded.
        </p>
      </figure>
    );
  }
  return (
    <figure className={zoomed ? 'chart-figure zoomable zoomed' : 'chart-figure zoomable'} data-zoomed={zoomed}>
      <img src={src} alt={alt} onError={() => setFailedSrc(src)} onClick={() => setZoomed(!zoomed)} data-testid={testId} />
      <figcaption className="figure-actions">
        {caption && <span>{caption}</span>}
        <button type="button" className="link-button" aria-pressed={zoomed} onClick={() => setZoomed(!zoomed)}>
          {zoomed ? 'Fit to the page' : 'Zoom to full size'}
        </button>
        <a href={src} target="_blank" rel="noreferrer">
          Open the image
        </a>
      </figcaption>
    </figure>
  );
}
