/**
 * Resolves the API's image paths to absolute URLs. The spec leaves the base open; real data has paths with and without a
 * `/rivals` prefix (same file) and signed `/premium/...?expires=...&signature=...` paths (api-samples/README.md).
 */

/** null when there is no image. */
export type ImageResolver = (value: unknown) => string | null;

/**
 * A resolver against `imageBaseUrl` (real API: `https://marvelrivalsapi.com/rivals`); drops a leading `/rivals` and keeps
 * query and fragment byte for byte, so signatures stay valid.
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
