/**
 * A browser as far as the dashboard's tests need one, over real HTTP: a cookie jar per host, redirects followed (across
 * hosts: the dashboard and the fake Discord's authorize page), forms posted as `application/x-www-form-urlencoded`.
 */
import { request } from 'undici';

export interface Page {
  status: number;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  html: string;
  /** Every `Set-Cookie` the answers on the way set, as sent. */
  setCookies: string[];
}

export class WebClient {
  readonly #jar = new Map<string, Map<string, string>>();

  /** The cookie `name` the jar holds for `url`'s host. */
  cookie(url: string, name: string): string | undefined {
    return this.#jar.get(new URL(url).host)?.get(name);
  }

  /** Sets a cookie by hand, as an attacker's page could not. */
  setCookie(url: string, name: string, value: string): void {
    const host = new URL(url).host;
    const jar = this.#jar.get(host) ?? new Map<string, string>();
    jar.set(name, value);
    this.#jar.set(host, jar);
  }

  forget(): void {
    this.#jar.clear();
  }

  get(url: string, follow = true): Promise<Page> {
    return this.#go('GET', url, undefined, follow);
  }

  /** Posts `form` (field → value) to `url`. */
  post(url: string, form: Record<string, string>, follow = true): Promise<Page> {
    return this.#go('POST', url, new URLSearchParams(form).toString(), follow);
  }

  async #go(method: 'GET' | 'POST', url: string, body: string | undefined, follow: boolean): Promise<Page> {
    const setCookies: string[] = [];
    for (let hop = 0; hop < 10; hop++) {
      const host = new URL(url).host;
      const jar = this.#jar.get(host);
      const headers: Record<string, string> = { 'accept-language': 'en-US,en;q=0.9' };
      if (jar?.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
      const res = await request(url, { method, headers, ...(body !== undefined ? { body } : {}) });
      const cookies = res.headers['set-cookie'];
      for (const line of cookies === undefined ? [] : Array.isArray(cookies) ? cookies : [cookies]) {
        setCookies.push(line);
        const [pair] = line.split(';');
        const at = pair!.indexOf('=');
        const [name, value] = [pair!.slice(0, at).trim(), pair!.slice(at + 1).trim()];
        const store = this.#jar.get(host) ?? new Map<string, string>();
        if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) store.delete(name);
        else store.set(name, value);
        this.#jar.set(host, store);
      }
      const location = res.headers.location;
      if (follow && res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string') {
        await res.body.dump();
        url = new URL(location, url).toString();
        method = 'GET';
        body = undefined;
        continue;
      }
      return { status: res.statusCode, url, headers: res.headers, html: await res.body.text(), setCookies };
    }
    throw new Error(`more than 10 redirects from ${url}`);
  }
}

/** The CSRF token of the page's forms. */
export function csrfOf(html: string): string {
  const found = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!found) throw new Error('the page has no CSRF token');
  return found[1]!;
}
