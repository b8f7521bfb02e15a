/**
 * Turns the API's image paths into absolute URLs.
 *
 * The spec (Resources, "The address against which image paths are resolved: not shown") leaves the
 * base open; real data (api-samples/README.md) carries paths with and without a `/rivals` prefix
 * (`/rivals/maps/map_1032.png` and `/maps/map_1032.png` name the same file) and signed paths such as
 * `/premium/...?expires=...&signature=...`.
 */

/** A function from an API image value to an absolute URL, or null when there is no image. */
export type ImageResolver = (value: unknown) => string | null;

/**
 * Creates a resolver against `imageBaseUrl` (for the real API `https://marvelrivalsapi.com/rivals`).
 * - null, empty or non-string values give null;
 * - absolute http(s) URLs are kept as they are, protocol-relative ones get `https:`;
 * - a leading `/rivals` is dropped before joining, so both forms give one URL;
 * - the query string and fragment are kept byte for byte, so signatures stay valid.
 */
export function createImageResolver(imageBaseUrl: string): ImageResolver {
  const base = imageBaseUrl.replace(/\/+$/, '');
  return (value) => {
    if (typeof value !== 'string') return null;
    const raw = value.trim();
    if (raw === '') return null;
    if (/^https?:\/\//i.test(raw)) return raw;
    if (raw.startsWith('//')) return `https:${raw}`;
    const cut = raw.search(/[?#]/);
    let path = cut === -1 ? raw : raw.slice(0, cut);
    const rest = cut === -1 ? '' : raw.slice(cut);
    if (!path.startsWith('/')) path = `/${path}`;
    path = path.replace(/^\/rivals(?=\/|$)/i, '') || '/';
    return `${base}${path}${rest}`;
  };
}
