/**
 * Property: whatever text a user types, the request reaches exactly the path meant, with the text as
 * one segment, or is refused before sending. Checked against a real HTTP server on loopback that
 * parses the request target with WHATWG URL rules (which resolve dot segments, encoded or not).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RivalsApi } from '../../src/api/client.js';
import { useLoopbackApi } from '../helpers/replica.js';
import { ApiArgumentError } from '../../src/core/api-errors.js';

let lastTarget = '';
const loopback = useLoopbackApi((req, res) => {
  lastTarget = req.url ?? '';
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end('{"error": true, "message": "No item found with the provided ID or name.", "status": 404}');
});

/** Texts that attack paths: traversal, separators, encodings, control characters, emoji. */
const hostile = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '../heroes',
    'a/b?c#d',
    '%2e%2e',
    '%2E%2E/%2e',
    '..%2f..%2fheroes',
    '.',
    '..',
    '...',
    '\u0000\u0001\n\r\t',
    'x\\..\\y',
    '?',
    '#',
    '%',
    '%%32%65',
    ' ',
    '/',
  ),
  fc.array(fc.constantFrom('..', '/', '%2e', '.', '?', '#', '%', '\\', 'é', '😀', 'a', ' '), { maxLength: 12 }).map((parts) => parts.join('')),
  fc.constant('😀'.repeat(2_000)),
);

/** One method per path shape, with the path prefix and suffix it must hit. */
const SHAPES: [string, (a: RivalsApi, q: string) => Promise<unknown>, string, string][] = [
  ['hero', (a, q) => a.hero(q), '/api/v1/heroes/hero/', ''],
  ['heroStats', (a, q) => a.heroStats(q), '/api/v1/heroes/hero/', '/stats'],
  ['player', (a, q) => a.player(q), '/api/v1/player/', ''],
  ['matchHistoryV2', (a, q) => a.matchHistoryV2(q), '/api/v2/player/', '/match-history'],
  ['item', (a, q) => a.item(q), '/api/v1/item/', ''],
  ['match', (a, q) => a.match(q), '/api/v1/match/', ''],
];

describe('path segments are percent-encoded', () => {
  it.each(SHAPES)('%s: input reaches only its own path, as one segment', async (_name, call, prefix, suffix) => {
    await fc.assert(
      fc.asyncProperty(hostile, async (input) => {
        lastTarget = '';
        try {
          await call(loopback.api, input);
        } catch (err) {
          if (err instanceof ApiArgumentError) {
            // Refused before sending: only for text that cannot be a segment at all.
            const t = input.trim();
            expect(t === '' || t === '.' || t === '..' || !t.isWellFormed() || t.length > 256).toBe(true);
            expect(lastTarget).toBe('');
            return;
          }
        }
        const target = lastTarget.split('?')[0]!;
        // The server's own URL parsing must agree that the path is exactly prefix + one segment + suffix.
        const pathname = new URL(lastTarget, 'http://x').pathname;
        expect(pathname).toBe(target);
        expect(target.startsWith(prefix)).toBe(true);
        expect(target.endsWith(suffix)).toBe(true);
        const segment = target.slice(prefix.length, target.length - suffix.length);
        expect(segment).not.toMatch(/[/?#\\]/);
        expect(decodeURIComponent(segment)).toBe(input.trim());
      }),
      { numRuns: 150 },
    );
  });
});
