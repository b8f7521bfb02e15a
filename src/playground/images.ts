/**
 * The page's image proxy to the API's image host: a served image passes (kept a while); anything else gets an SVG placeholder
 * of the right shape, so the page never shows a broken image and never fetches from arbitrary hosts.
 */
import { LRUCache } from 'lru-cache';
import { request } from 'undici';

/** Where an image is shown, which decides the placeholder's shape. */
export type ImageKind = 'thumbnail' | 'image' | 'icon';

export interface ProxiedImage {
  contentType: string;
  body: Buffer;
  /** True when the placeholder stands in for the image. */
  placeholder: boolean;
}

export interface ImageProxyOptions {
  /** The API image host (`RIVALS_IMAGE_BASE_URL`'s origin). */
  allowedOrigins: string[];
  /** Ms for one fetch. */
  timeoutMs?: number;
  /** Bytes; larger images are refused. */
  maxBytes?: number;
  /** Ms a failure is remembered before the host is asked again. */
  failureTtlMs?: number;
}

const SHAPES: Record<ImageKind, [number, number]> = { thumbnail: [160, 160], image: [400, 225], icon: [48, 48] };

/** In Discord's dark palette: a picture glyph and, when there is room, a caption. */
export function placeholderSvg(kind: ImageKind): Buffer {
  const [w, h] = SHAPES[kind];
  const s = Math.min(w, h) * 0.32;
  const x = (w - s) / 2;
  const y = (h - s) / 2 - (kind === 'icon' ? 0 : h * 0.06);
  const caption =
    kind === 'icon'
      ? ''
      : `<text x="${w / 2}" y="${y + s + h * 0.16}" fill="#949ba4" font-family="sans-serif" font-size="${Math.round(Math.min(w, h) * 0.085)}" text-anchor="middle">Image offline</text>`;
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-label="Image unavailable offline">` +
      `<rect width="${w}" height="${h}" rx="${Math.round(Math.min(w, h) * 0.06)}" fill="#1e1f22"/>` +
      `<g fill="none" stroke="#4e5058" stroke-width="${Math.max(1.5, s * 0.07)}" stroke-linejoin="round">` +
      `<rect x="${x}" y="${y}" width="${s}" height="${s * 0.8}" rx="${s * 0.08}"/>` +
      `<path d="M${x + s * 0.1} ${y + s * 0.68} L${x + s * 0.38} ${y + s * 0.38} L${x + s * 0.58} ${y + s * 0.58} L${x + s * 0.72} ${y + s * 0.46} L${x + s * 0.9} ${y + s * 0.64}"/>` +
      `<circle cx="${x + s * 0.72}" cy="${y + s * 0.22}" r="${s * 0.08}"/></g>${caption}</svg>`,
  );
}

export class ImageProxy {
  readonly #o: Required<ImageProxyOptions>;
  readonly #images: LRUCache<string, ProxiedImage>;
  readonly #failures: LRUCache<string, true>;

  constructor(options: ImageProxyOptions) {
    this.#o = { timeoutMs: 4_000, maxBytes: 5_000_000, failureTtlMs: 300_000, ...options };
    this.#images = new LRUCache({ maxSize: 50_000_000, sizeCalculation: (v) => Math.max(1, v.body.length), ttl: 3_600_000 });
    this.#failures = new LRUCache({ max: 5_000, ttl: this.#o.failureTtlMs });
  }

  /** The image at `src`, or the placeholder for `kind` when it cannot be had. Never rejects. */
  async get(src: string, kind: ImageKind): Promise<ProxiedImage> {
    const placeholder: ProxiedImage = { contentType: 'image/svg+xml', body: placeholderSvg(kind), placeholder: true };
    let url: URL;
    try {
      url = new URL(src);
    } catch {
      return placeholder;
    }
    if (!/^https?:$/.test(url.protocol) || !this.#o.allowedOrigins.includes(url.origin)) return placeholder;
    const cached = this.#images.get(url.href);
    if (cached) return cached;
    if (this.#failures.has(url.href)) return placeholder;
    try {
      const image = await this.#fetch(url);
      this.#images.set(url.href, image);
      return image;
    } catch {
      this.#failures.set(url.href, true);
      return placeholder;
    }
  }

  async #fetch(url: URL): Promise<ProxiedImage> {
    const signal = AbortSignal.timeout(this.#o.timeoutMs);
    const res = await request(url, { signal, headersTimeout: this.#o.timeoutMs, bodyTimeout: this.#o.timeoutMs });
    const contentType = String(res.headers['content-type'] ?? '');
    if (res.statusCode !== 200 || !contentType.startsWith('image/')) {
      await res.body.dump();
      throw new Error(`image answered ${res.statusCode} ${contentType}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > this.#o.maxBytes) {
        res.body.destroy();
        throw new Error('image too large');
      }
      chunks.push(chunk as Buffer);
    }
    return { contentType, body: Buffer.concat(chunks), placeholder: false };
  }
}
