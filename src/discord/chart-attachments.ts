/** Draws a View's chart specs into files of its message (src/charts/renderer.ts), so handlers and renderers only ask for charts and stay pure. */
import { LRUCache } from 'lru-cache';
import type { ChartRenderer } from '../charts/renderer.js';
import { cardImageUrls, hasCardImages, type ChartSpec } from '../charts/specs.js';
import type { ImageSource } from '../api/image-store.js';
import { currentDeadline, settleUntilAborted } from '../core/deadline.js';
import type { Logger } from '../core/logger.js';
import { hasData } from '../render/view-charts.js';
import { withoutCardImages, type View, type ViewChart, type ViewFile } from '../render/view.js';

/** Longest a chart may take when the answer has no deadline (the CLI), ms. */
export const CHART_TIMEOUT_MS = 10_000;
/** Time kept back from the answer's deadline for sending it once the chart is drawn, ms. */
const CHART_RESERVE_MS = 300;

const CACHE_BYTES = 16 * 1024 * 1024;

/** A spec's cache key: its JSON, a card's image bytes named by their URLs alone (which were had decides what is drawn). */
function chartKey(spec: ChartSpec): string {
  const { images } = spec as { images?: Record<string, Uint8Array> };
  return JSON.stringify(images ? { ...spec, images: Object.keys(images).sort() } : spec);
}

/** `renderer` drawing with `render` instead: its threads, closing and warming stay its own. */
function withRender(renderer: ChartRenderer, render: ChartRenderer['render']): ChartRenderer {
  return {
    get threads() {
      return renderer.threads;
    },
    close: () => renderer.close(),
    warm: () => renderer.warm?.(),
    render,
  };
}

/**
 * A renderer that keeps recent PNGs by spec up to `maxBytes`; concurrent renders of one spec share one draw; failures are not
 * kept. A card is keyed with the images it had: one drawn with a placeholder is drawn again once its image comes.
 */
export function cachedCharts(renderer: ChartRenderer, maxBytes = CACHE_BYTES): ChartRenderer {
  const drawn = new LRUCache<string, Buffer>({ maxSize: maxBytes, sizeCalculation: (png) => Math.max(1, png.byteLength) });
  const drawing = new Map<string, Promise<Buffer>>();
  return withRender(renderer, async (spec, options) => {
    const key = chartKey(spec);
    const kept = drawn.get(key);
    if (kept) return kept;
    let pending = drawing.get(key);
    if (!pending) {
      pending = renderer
        .render(spec, options)
        .then((png) => {
          drawn.set(key, png);
          return png;
        })
        .finally(() => drawing.delete(key));
      drawing.set(key, pending);
    }
    return pending;
  });
}

/**
 * A renderer that puts the image bytes a card names (src/charts/specs.ts `ProfileCard`) into its spec before drawing; other
 * specs pass through. An image not had in time is left out: the card draws a placeholder. Put around {@link cachedCharts},
 * so that the cache knows which images a card was drawn with.
 */
export function withCardImages(renderer: ChartRenderer, images: ImageSource): ChartRenderer {
  return withRender(renderer, async (spec, options) => {
    if (!hasCardImages(spec)) return renderer.render(spec, options);
    const urls = cardImageUrls(spec);
    // One wait on the signal for all of a card's images (a dozen listeners on one signal would warn of a leak).
    const signal = options?.signal;
    const all = Promise.all(urls.map((url) => images.get(url)));
    const bytes = signal ? await settleUntilAborted(all, signal, () => urls.map(() => null)) : await all;
    const found = Object.fromEntries(urls.flatMap((url, i) => (bytes[i] ? [[url, bytes[i]]] : [])));
    return renderer.render({ ...spec, images: found }, options);
  });
}

/** A View's chart as a PNG file; undefined (logged at warn) without a renderer, data, or a PNG before the deadline less the reserve. Never throws. */
async function chartFile(charts: ChartRenderer | undefined, { spec, name, description, text }: ViewChart, logger: Logger): Promise<ViewFile | undefined> {
  if (!charts || !hasData(spec)) return undefined;
  const deadline = currentDeadline();
  const ms = deadline === undefined ? CHART_TIMEOUT_MS : deadline - CHART_RESERVE_MS - Date.now();
  if (ms <= 0) {
    logger.warn({ chart: spec.kind }, 'no time left to draw a chart: answering without it');
    return undefined;
  }
  try {
    const png = await charts.render(spec, { signal: AbortSignal.timeout(ms) });
    return { name, data: png, contentType: 'image/png', description, ...(text ? { text } : {}) };
  } catch (err) {
    logger.warn({ err, chart: spec.kind }, 'chart not drawn: answering without it');
    return undefined;
  }
}

/** `view` with its charts drawn and appended to its files; a chart not drawn is left out, its embed's image too (a card's text shown instead). Never throws. */
export async function drawCharts(view: View, charts: ChartRenderer | undefined, logger: Logger): Promise<View> {
  if (!view.charts?.length) return view;
  const { charts: wanted, ...rest } = view;
  const drawn = await Promise.all(wanted.map((chart) => chartFile(charts, chart, logger)));
  const files = drawn.filter((f): f is ViewFile => f !== undefined);
  const missing = new Map(wanted.filter((_, i) => !drawn[i]).map((c) => [`attachment://${c.name}`, c.text]));
  const allFiles = [...(rest.files ?? []), ...files];
  return { ...withoutCardImages(rest, missing), ...(allFiles.length ? { files: allFiles } : {}) };
}
