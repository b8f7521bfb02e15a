/** One way to make an element for the page's drawing code (render.ts, markdown.ts). */

/**
 * An element with `props` set as properties (the web components read properties) and `children`
 * appended as nodes or text (never parsed as HTML). `slot`, `class` and `data-*` are set as
 * attributes; undefined, null and false props are left unset.
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
