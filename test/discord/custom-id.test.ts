import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CustomIdTooLongError, decodeCustomId, encodeCustomId, MAX_CUSTOM_ID_LENGTH } from '../../src/render/custom-id.js';

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
  it('decodes foreign or corrupted IDs as null', () => {
    for (const id of ['', ':x', ' a:b', 'x'.repeat(101), '💥:1']) expect(decodeCustomId(id)).toBeNull();
  });
});
