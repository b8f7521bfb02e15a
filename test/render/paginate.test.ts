import fc from 'fast-check';
import { ButtonStyle, ComponentType } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { decodeCustomId } from '../../src/render/custom-id.js';
import { clampPage, pageCount, pageFromArgs, pageRow, splitPages } from '../../src/render/paginate.js';

describe('pageRow', () => {
  it('gives five distinct buttons that carry their target page', () => {
    const row = pageRow('list', ['abc'], 3, 7)!;
    const buttons = row.components;
    expect(buttons.map((b) => b.label)).toEqual(['«', '‹', 'Page 3 of 7', '›', '»']);
    const ids = buttons.map((b) => b.custom_id);
    expect(new Set(ids).size).toBe(5);
    expect(ids.map((id) => pageFromArgs(decodeCustomId(id)!.args))).toEqual([1, 2, 3, 4, 7]);
    expect(buttons.map((b) => Boolean(b.disabled))).toEqual([false, false, true, false, false]);
    expect(row.type).toBe(ComponentType.ActionRow);
    // Grey, all five: the page row stays quieter than the answer above it.
    expect(buttons.map((b) => b.style)).toEqual(Array(5).fill(ButtonStyle.Secondary));
  });
  it('disables the way past either end, and is absent for one page', () => {
    expect(pageRow('list', [], 1, 2)!.components.map((b) => Boolean(b.disabled))).toEqual([true, true, true, false, false]);
    expect(pageRow('list', [], 2, 2)!.components.map((b) => Boolean(b.disabled))).toEqual([false, false, true, true, true]);
    expect(pageRow('list', [], 1, 1)).toBeNull();
  });
  it('clamps and counts pages', () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(21, 10)).toBe(3);
    expect(clampPage(9, 3)).toBe(3);
    expect(clampPage(Number.NaN, 3)).toBe(1);
    expect(clampPage(-4, 3)).toBe(1);
  });
});

describe('splitPages', () => {
  it('never cuts a word that fits a page, even after an early break', () => {
    expect(splitPages('ab cdefghijklmnopqrstu v', 20)).toEqual(['ab', 'cdefghijklmnopqrstu', 'v']);
    // Found by the property below: a leading space is no place to break.
    expect(splitPages(' aaaaaaaaaaaaaaaaaaaaaaa', 23)).toEqual(['aaaaaaaaaaaaaaaaaaaaaaa']);
  });
  it('splits on paragraph boundaries', () => {
    expect(splitPages('aaa\n\nbbb\n\nccc', 8)).toEqual(['aaa\n\nbbb', 'ccc']);
  });
  it('keeps every page within the limit, loses no character, and splits only words longer than a page', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.stringMatching(/^[a-z]{1,12}$/), fc.constantFrom(' ', '\n', '\n\n', '. ')), { maxLength: 300 }),
        fc.integer({ min: 20, max: 300 }),
        (parts, max) => {
          const text = parts.join('');
          const pages = splitPages(text, max);
          for (const p of pages) expect(p.length).toBeLessThanOrEqual(max);
          const squash = (s: string) => s.replace(/[\s.]+/g, '');
          expect(squash(pages.join(''))).toBe(squash(text));
          const words = (s: string) => s.split(/[\s.]+/).filter(Boolean);
          const pageWords = pages.flatMap(words);
          for (const w of words(text)) if (w.length <= max) expect(pageWords).toContain(w);
        },
      ),
      { numRuns: 500 },
    );
  });
});
