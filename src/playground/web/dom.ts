/**
 * An element with `props` set as properties (the web components read properties), `slot`, `class` and `data-*` as attributes,
 * and `children` appended as nodes or text, never parsed as HTML.
 */
export function el<T extends HTMLElement = HTMLElement>(tag: string, props: Record<string, unknown> = {}, children: (Node | string)[] = []): T {
  const e = document.createElement(tag) as T;
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'slot' || k === 'class' || k.startsWith('data-')) e.setAttribute(k, String(v));
    else (e as unknown as Record<string, unknown>)[k] = v;
  }
  e.append(...children);
  return e;
}
