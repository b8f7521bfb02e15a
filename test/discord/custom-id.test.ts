import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CustomIdTooLongError,
  decodeCustomId,
  encodeCustomId,
  encodeCustomIdIfFits,
  MAX_CUSTOM_ID_LENGTH,
  MAX_PAGE,
  pageArg,
  STORE_KEY_LENGTH,
  storeKeyArg,
  wholeArg,
} from '../../src/render/custom-id.js';
import { pageFromArgs } from '../../src/render/paginate.js';

describe('custom-ID codec', () => {
  it('round-trips any arguments that fit, colons and percent signs included', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z][\w.-]{0,9}$/), fc.array(fc.string({ maxLength: 15 }), { maxLength: 4 }), (route, args) => {
        let id: string;
        try {
          id = encodeCustomId(route, ...args);
        } catch (err) {
          expect(err).toBeInstanceOf(CustomIdTooLongError);
          return;
        }
        expect(id.length).toBeLessThanOrEqual(MAX_CUSTOM_ID_LENGTH);
        expect(decodeCustomId(id)).toEqual({ route, args });
      }),
    );
  });
  it('writes route:arg:arg', () => {
    expect(encodeCustomId('hero.p', '1011', 'lore', 2, 'n')).toBe('hero.p:1011:lore:2:n');
    expect(encodeCustomId('p', 'a:b', '50%')).toBe('p:a%3Ab:50%25');
  });
  it('refuses state over 100 characters and bad routes', () => {
    expect(() => encodeCustomId('x', 'y'.repeat(99))).toThrow(CustomIdTooLongError);
    expect(() => encodeCustomId('bad route')).toThrow(RangeError);
  });
  it('makes an ID from another ID’s arguments only when it fits', () => {
    expect(encodeCustomIdIfFits('pl.p', '1', 'b')).toBe('pl.p:1:b');
    expect(encodeCustomIdIfFits('x', 'y'.repeat(99))).toBeNull();
    expect(() => encodeCustomIdIfFits('bad route')).toThrow(RangeError);
  });
  it('decodes foreign or corrupted IDs as null', () => {
    for (const id of ['', ':x', ' a:b', 'x'.repeat(101), '💥:1']) expect(decodeCustomId(id)).toBeNull();
  });
});

describe('numbers read from a custom ID', () => {
  const TEAM = { min: 0, max: 4, fallback: 0 };

  it('reads what the encoder writes for an integer, clamped into its bounds', () => {
    expect(wholeArg('3', TEAM)).toBe(3);
    expect(wholeArg('0', TEAM)).toBe(0);
    expect(wholeArg('-5', TEAM)).toBe(0);
    expect(wholeArg('-5', { min: -10, max: 10, fallback: 0 })).toBe(-5);
    expect(wholeArg('007', TEAM)).toBe(4);
    expect(wholeArg('-0', { min: -1, max: 1, fallback: 1 })).toBe(0);
    expect(Object.is(wholeArg('-0', { min: -1, max: 1, fallback: 1 }), 0)).toBe(true);
  });

  it('gives the fallback for anything that is not a whole decimal number', () => {
    for (const arg of ['1e308', 'NaN', '', '2.5', '0x10', '+1', ' 1', '1 ', 'Infinity', '-', '1_000', '١', undefined])
      expect(wholeArg(arg, { min: -100, max: 100, fallback: 7 }), String(arg)).toBe(7);
  });

  it('clamps a digit string of any length to a bound', () => {
    expect(wholeArg('9'.repeat(30), TEAM)).toBe(4);
    expect(wholeArg('9'.repeat(400), TEAM)).toBe(4);
    expect(wholeArg(`-${'9'.repeat(400)}`, TEAM)).toBe(0);
  });

  it('refuses bounds that are not integers with min ≤ fallback ≤ max', () => {
    expect(() => wholeArg('1', { min: 1, max: 0, fallback: 1 })).toThrow(RangeError);
    expect(() => wholeArg('1', { min: 0, max: 2, fallback: 3 })).toThrow(RangeError);
    expect(() => wholeArg('1', { min: 0, max: Infinity, fallback: 0 })).toThrow(RangeError);
    expect(() => wholeArg('1', { min: 0, max: 2.5, fallback: 0 })).toThrow(RangeError);
  });

  it('reads a page as 1 to MAX_PAGE, the first page for anything else, from a page button’s arguments too', () => {
    const cases: [string, number][] = [
      ['1e308', 1],
      ['NaN', 1],
      ['', 1],
      ['-5', 1],
      ['0', 1],
      ['2.5', 1],
      ['0x10', 1],
      ['12', 12],
      ['9'.repeat(40), MAX_PAGE],
    ];
    for (const [arg, page] of cases) {
      expect(pageArg(arg), arg).toBe(page);
      expect(pageFromArgs(decodeCustomId(encodeCustomId('ld.p', '-', 'season', '-', arg, 'n'))!.args), arg).toBe(page);
    }
    expect(pageFromArgs([])).toBe(1);
    expect(pageFromArgs(['n'])).toBe(1);
  });

  it('whatever the argument, gives an integer within the bounds', () => {
    const bounds = fc
      .tuple(fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: 0, max: 1e6 }), fc.integer({ min: 0, max: 1e6 }))
      .map(([min, span, at]) => ({ min, max: min + span, fallback: min + Math.min(at, span) }));
    const arg = fc.oneof(fc.string(), fc.stringMatching(/^-?\d{1,400}$/), fc.double().map(String), fc.integer().map(String));
    fc.assert(
      fc.property(arg, bounds, (a, b) => {
        const n = wholeArg(a, b);
        expect(Number.isSafeInteger(n)).toBe(true);
        expect(n).toBeGreaterThanOrEqual(b.min);
        expect(n).toBeLessThanOrEqual(b.max);
        if (/^-?\d{1,15}$/.test(a)) expect(n).toBe(Math.min(b.max, Math.max(b.min, Number(a))) || 0);
        else if (!/^-?\d+$/.test(a)) expect(n).toBe(b.fallback);
      }),
    );
  });
});

describe('store keys read from a custom ID', () => {
  it('reads exactly ten URL-safe characters, as the codec carries them', () => {
    expect(STORE_KEY_LENGTH).toBe(10);
    for (const key of ['AbC-_09xyz', '----------', '0123456789']) {
      expect(storeKeyArg(key), key).toBe(key);
      expect(storeKeyArg(decodeCustomId(encodeCustomId('pl.s', '1', '', key))!.args[2]), key).toBe(key);
    }
  });

  it('gives null for anything else: nothing, a number, the wrong length, characters the store never makes', () => {
    for (const arg of [undefined, '', '1', '123456789', '12345678901', 'abc:defghi', 'abc%3Adefg', 'abc def gh', 'abc.defghi', 'abcdéfghij', '١٢٣٤٥٦٧٨٩٠'])
      expect(storeKeyArg(arg), String(arg)).toBeNull();
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (arg) => {
        const key = storeKeyArg(arg);
        expect(key === null || (key === arg && /^[A-Za-z0-9_-]{10}$/.test(arg))).toBe(true);
      }),
    );
  });
});
