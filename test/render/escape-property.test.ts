/**
 * Property: whatever a member types, escapeText makes Discord draw it as plain text, character for
 * character: parsed as Discord parses embed text (discord-markdown-parser, made stricter where Discord
 * is looser: test/helpers/markdown-oracle.ts), the escaped text is only text nodes, and they spell the
 * input (or, when cut, a prefix of it on a grapheme boundary and an ellipsis), as the parser reads it
 * (`\r\n` as a line break, a tab as spaces: {@link asRead}).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeText } from '../../src/render/limits.js';
import { asRead, markup, plainRuns, plainText } from '../helpers/markdown-oracle.js';

/** Pieces of Discord syntax, so that the strings are full of near-misses and real constructs. */
const SYNTAX = [
  '[a](https://x.y)',
  '[a]',
  '(https://x.y)',
  '![i](https://x.y/i.png)',
  '**',
  '*',
  '__',
  '_',
  '~~',
  '~',
  '||',
  '|',
  '`',
  '```',
  '```js\n',
  '#',
  '# ',
  '## ',
  '### ',
  '-# ',
  '- ',
  '* ',
  '+ ',
  '1. ',
  '12. ',
  '>',
  '> ',
  '>>> ',
  '<@123>',
  '<@!123>',
  '<@12345678901234567>',
  '<@&1>',
  '<@&12345678901234567>',
  '<#1>',
  '<#12345678901234567>',
  '<t:1:R>',
  '<t:1700000000>',
  '</a:1>',
  '</a b c:12345678901234567>',
  '<:e:1>',
  '<a:ee:12345678901234567>',
  '<12345678901234567:browse>',
  '@everyone',
  '@here',
  '@Everyone',
  'https://',
  'http://x.y/a_b_c',
  'steam://run/1',
  '<https://x.y>',
  '<a@b.c>',
  'a@b.c',
  '\\',
  '\\\\',
  '\\*',
  '\n',
  '\n\n',
  '  \n',
  '\r\n',
  ' ',
  '  ',
  '\t',
  ':',
  '/',
  '.',
  '¯\\_(ツ)_/¯',
  ':smile:',
  'a',
  'Z',
  '0',
  '9',
  'word',
  '😀',
  '👍🏽',
  '🇫🇷',
  'é',
  'e\u0301',
  '\u200b',
  '\u202e',
  'ツ',
];
const token = fc.constantFrom(...SYNTAX);

/** Arbitrary strings: Discord syntax spliced with random text (ASCII, any grapheme, any UTF-16 unit). */
const input = fc.oneof(
  fc.array(fc.oneof({ weight: 4, arbitrary: token }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) }), { maxLength: 30 }).map((parts) => parts.join('')),
  // eslint-disable-next-line @typescript-eslint/no-misused-spread -- an ASCII-only alphabet
  fc.string({ unit: fc.constantFrom(...'*_~|`<>[]()#-+.:/@\\ \n1aZ'), maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

const graphemes = (s: string) => [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(s)].map((g) => g.segment);

describe('escapeText shows what was typed, as plain text', () => {
  it('examples: what the member sees is what they typed', () => {
    const cases: [string, string][] = [
      ['**bold** _it_ `code` ~~s~~ ||sp||', '\\*\\*bold\\*\\* \\_it\\_ \\`code\\` \\~\\~s\\~\\~ \\|\\|sp\\|\\|'],
      ['[free](https://x.test)', '\\[free\\](https\\://x.test)'],
      ['https://x.y/a_b', 'https\\://x.y/a\\_b'],
      ['<https://x.y>', '\\<https\\://x.y>'],
      ['<@123> <@&1> <#1> <t:1:R> </a:1> <:e:1>', '\\<\\@123> \\<\\@&1> \\<#1> \\<t\\:1\\:R> \\</a\\:1> \\<\\:e\\:1>'],
      ['@everyone @here', '\\@everyone \\@here'],
      ['# big\n-# small\n> quote\n- item\n1. first\n  * nested', '\\# big\n\\-# small\n\\> quote\n\\- item\n1\\. first\n  \\* nested'],
      ['C:\\Users\\me', 'C\\:\\\\Users\\\\me'],
      ['Spider-Man #1. No', 'Spider-Man #1. No'],
      ['no-such-player-anywhere', 'no-such-player-anywhere'],
    ];
    for (const [raw, escaped] of cases) {
      expect(escapeText(raw), raw).toBe(escaped);
      expect(plainText(escaped), raw).toBe(raw);
    }
    // The same inputs, unescaped, are drawn as markup: the oracle does see what escaping prevents.
    for (const [raw] of cases.slice(0, 7)) expect(plainText(raw), raw).toBeNull();
  });

  it('for arbitrary input, the escaped text is only text nodes that spell the input', () => {
    fc.assert(
      fc.property(input, (raw) => {
        expect(plainText(escapeText(raw))).toBe(asRead(raw));
      }),
      { numRuns: 3000 },
    );
  });

  it('cut to max: never over max, only text, a grapheme prefix of the input and an ellipsis, the longest that fits', () => {
    fc.assert(
      fc.property(input, fc.integer({ min: 1, max: 80 }), (raw, max) => {
        const out = escapeText(raw, max);
        expect(out.length).toBeLessThanOrEqual(max);
        const seen = plainText(out);
        if (out === escapeText(raw)) {
          expect(seen).toBe(asRead(raw));
          return;
        }
        expect(out.endsWith('…')).toBe(true);
        expect(seen).not.toBeNull();
        const prefix = seen!.slice(0, -1);
        const parts = graphemes(raw);
        // The longest grapheme prefix that reads as what is shown (a form feed reads as nothing).
        let kept = -1;
        for (let i = 0; i < parts.length; i++) if (asRead(parts.slice(0, i).join('')) === prefix) kept = i;
        expect(kept, 'the text before the ellipsis ends on a grapheme boundary of the input').toBeGreaterThanOrEqual(0);
        // One grapheme more would not have fitted.
        expect(escapeText(parts.slice(0, kept + 1).join('')).length + 1).toBeGreaterThan(max);
      }),
      { numRuns: 1500 },
    );
  });

  it('next to the text of a template, the escaped text adds no markup and reads as typed', () => {
    const templates = [
      (e: string) => `No player called “${e}”. Check the spelling.`,
      (e: string) => `**${e}** · 3 matches`,
      (e: string) => `Line\n${e}\nnext`,
      (e: string) => `${e}${e}`,
    ];
    fc.assert(
      fc.property(
        input.filter((raw) => asRead(raw) !== ''),
        fc.constantFrom(...templates),
        (raw, template) => {
          expect(markup(template(escapeText(raw)))).toEqual(markup(template('qqq')));
          const runs = plainRuns(template(escapeText(raw)));
          expect(runs.some((run) => run.includes(asRead(raw)))).toBe(true);
        },
      ),
      { numRuns: 1500 },
    );
  });
});
