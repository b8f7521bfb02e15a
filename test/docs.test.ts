/**
 * The README and docs/ as a newcomer reads them: a README short enough to read, and links that lead somewhere
 * (a file of this repository, a heading of it, or a public site), never outside the checkout.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PAGES = [
  'README.md',
  'PRIVACY.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');
}

/** The page's markdown links `[text](target)` outside code, and the anchors of its headings. */
function parse(file: string): { links: string[]; anchors: Set<string> } {
  const links: string[] = [];
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(join(ROOT, file), 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6} (.+)$/.exec(line);
    if (heading) anchors.add(anchorOf(heading[1]!));
    for (const m of line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)) links.push(m[1]!);
  }
  return { links, anchors };
}

describe('README.md and docs/', () => {
  it('the README is at most 250 lines', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(250);
  });

  it('links only to files and headings of this repository, or to public https sites', () => {
    const broken: string[] = [];
    for (const file of PAGES) {
      for (const link of parse(file).links) {
        if (/^https:\/\//.test(link)) {
          if (/^https:\/\/(localhost|127\.|\[::1\])/.test(link)) broken.push(`${file}: ${link} (not a public site)`);
          continue;
        }
        if (/^[a-z]+:/i.test(link)) {
          broken.push(`${file}: ${link} (not https)`);
          continue;
        }
        const [path, anchor] = link.split('#') as [string, string | undefined];
        const target = path === '' ? join(ROOT, file) : resolve(ROOT, dirname(file), path);
        if (relative(ROOT, target).startsWith('..')) broken.push(`${file}: ${link} (outside the repository)`);
        else if (!existsSync(target)) broken.push(`${file}: ${link} (no such file)`);
        else if (anchor && target.endsWith('.md') && !parse(relative(ROOT, target)).anchors.has(anchor)) broken.push(`${file}: ${link} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});
