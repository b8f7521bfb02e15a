import fc from 'fast-check';
import { ButtonStyle, ComponentType, type APIEmbed } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { embedLength, escapeText, LIMITS, truncate } from '../../src/render/limits.js';
import { fitView } from '../../src/render/view.js';
import { toMessagePayload, type View } from '../../src/render/view.js';

const isLoneSurrogateAtEnd = (s: string) => {
  const last = s.charCodeAt(s.length - 1);
  return last >= 0xd800 && last <= 0xdbff;
};

describe('truncate', () => {
  it('keeps text that fits and cuts the rest with an ellipsis on a grapheme boundary', () => {
    expect(truncate('hello', 5)).toBe('hello');
    expect(truncate('hello world', 8)).toBe('hello w…');
    expect(truncate('👍🏽👍🏽👍🏽', 6)).toBe('👍🏽…');
  });
  it('never exceeds max and never leaves half a character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.integer({ min: 1, max: 200 }), (s, max) => {
        const out = truncate(s, max);
        expect(out.length).toBeLessThanOrEqual(max);
        expect(isLoneSurrogateAtEnd(out.replace(/…$/, ''))).toBe(false);
        if (s.length <= max) expect(out).toBe(s);
        else expect(s.startsWith(out.slice(0, -1))).toBe(true);
      }),
    );
  });
});

describe('escapeText', () => {
  it('escapes Discord markdown', () => {
    expect(escapeText('**bold** _it_ `code` ~~s~~ ||sp||')).toBe('\\*\\*bold\\*\\* \\_it\\_ \\`code\\` \\~\\~s\\~\\~ \\|\\|sp\\|\\|');
  });
  it('never cuts inside an escape: no dangling backslash before the ellipsis, never over max', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('*', '_', '`', '~', '|', '\\', 'a', ' ', '😀', '>', '#'), maxLength: 200 }),
        fc.integer({ min: 2, max: 100 }),
        (s, max) => {
          const out = escapeText(s, max);
          expect(out.length).toBeLessThanOrEqual(max);
          if (out.endsWith('…')) {
            const body = out.slice(0, -1);
            const trailing = body.match(/\\*$/)![0].length;
            expect(trailing % 2).toBe(0);
          }
        },
      ),
    );
  });
});

/** Arbitrary embeds far over every limit. */
const longText = (max: number) => fc.string({ unit: 'grapheme-composite', maxLength: max });
const embed: fc.Arbitrary<APIEmbed> = fc.record(
  {
    title: longText(400),
    description: longText(6000),
    author: fc.record({ name: longText(400) }),
    footer: fc.record({ text: longText(3000) }),
    fields: fc.array(fc.record({ name: longText(400), value: longText(1500), inline: fc.boolean() }), { maxLength: 40 }),
  },
  { requiredKeys: [] },
);

describe('fitView keeps every message within Discord limits', () => {
  it('for arbitrary embeds and components', () => {
    fc.assert(
      fc.property(
        fc.array(embed, { maxLength: 14 }),
        longText(3000),
        fc.array(fc.integer({ min: 0, max: 8 }), { maxLength: 8 }),
        fc.integer({ min: 0, max: 40 }),
        (embeds, content, buttonCounts, optionCount) => {
          const view: View = {
            content,
            embeds,
            components: [
              ...buttonCounts.map((n, r) => ({
                type: ComponentType.ActionRow as const,
                components: Array.from({ length: n }, (_, i) => ({
                  type: ComponentType.Button as const,
                  style: ButtonStyle.Primary as const,
                  custom_id: `b:${r}:${i}`,
                  label: 'x'.repeat(120),
                })),
              })),
              {
                type: ComponentType.ActionRow,
                components: [
                  {
                    type: ComponentType.StringSelect,
                    custom_id: 's',
                    options: Array.from({ length: optionCount }, (_, i) => ({ label: `o${i}`.repeat(60), value: `v${i}`, description: 'd'.repeat(150) })),
                  },
                ],
              },
            ],
          };
          const p = toMessagePayload(view);
          expect(p.content.length).toBeLessThanOrEqual(LIMITS.content);
          expect(p.embeds.length).toBeLessThanOrEqual(LIMITS.embeds);
          expect(p.embeds.reduce((s, e) => s + embedLength(e), 0)).toBeLessThanOrEqual(LIMITS.embedTotal);
          for (const e of p.embeds) {
            expect(e.title?.length ?? 0).toBeLessThanOrEqual(LIMITS.title);
            expect(e.description?.length ?? 0).toBeLessThanOrEqual(LIMITS.description);
            expect(e.author?.name.length ?? 0).toBeLessThanOrEqual(LIMITS.author);
            expect(e.footer?.text.length ?? 0).toBeLessThanOrEqual(LIMITS.footer);
            expect(e.fields?.length ?? 0).toBeLessThanOrEqual(LIMITS.fields);
            for (const f of e.fields ?? []) {
              expect(f.name.length).toBeGreaterThan(0);
              expect(f.name.length).toBeLessThanOrEqual(LIMITS.fieldName);
              expect(f.value.length).toBeGreaterThan(0);
              expect(f.value.length).toBeLessThanOrEqual(LIMITS.fieldValue);
            }
          }
          expect(p.components.length).toBeLessThanOrEqual(LIMITS.actionRows);
          for (const row of p.components) {
            expect(row.components.length).toBeGreaterThan(0);
            expect(row.components.length).toBeLessThanOrEqual(LIMITS.buttonsPerRow);
            for (const c of row.components) {
              if (c.type === ComponentType.Button && 'label' in c) expect(c.label!.length).toBeLessThanOrEqual(LIMITS.buttonLabel);
              if (c.type === ComponentType.StringSelect) {
                expect(row.components).toHaveLength(1);
                expect(c.options.length).toBeLessThanOrEqual(LIMITS.selectOptions);
                for (const o of c.options) expect(o.label.length).toBeLessThanOrEqual(LIMITS.optionLabel);
              }
            }
          }
        },
      ),
      { numRuns: 120 },
    );
  });

  it('sends no mentions and sets the ephemeral flag', () => {
    expect(toMessagePayload({ content: '@everyone', ephemeral: true })).toEqual({
      content: '@everyone',
      embeds: [],
      components: [],
      flags: 64,
      allowed_mentions: { parse: [] },
    });
    expect(toMessagePayload({ allowedRoleIds: ['123'] }).allowed_mentions).toEqual({ parse: [], roles: ['123'] });
  });
});

describe('fitView keeps files within Discord limits', () => {
  const file = (name: string, bytes: number) => ({ name, data: new Uint8Array(bytes), contentType: 'image/png' as const });

  it('keeps at most 10 files and 8 MB in all, in order, and drops the embed image of a file left out', () => {
    const files = [file('a.png', 5 * 1024 * 1024), file('big.png', 4 * 1024 * 1024), ...Array.from({ length: 12 }, (_, i) => file(`c${i}.png`, 10))];
    const view = fitView({
      embeds: [
        { title: 'A', image: { url: 'attachment://a.png' } },
        { title: 'Big', image: { url: 'attachment://big.png' } },
      ],
      files,
    });
    expect(view.files!.map((f) => f.name)).toEqual(['a.png', ...Array.from({ length: 9 }, (_, i) => `c${i}.png`)]);
    expect(view.embeds![0]!.image).toEqual({ url: 'attachment://a.png' });
    expect(view.embeds![1]!.image).toBeUndefined();
    expect(view.files!.reduce((n, f) => n + f.data.byteLength, 0)).toBeLessThanOrEqual(LIMITS.fileBytes);
  });

  it('makes file names safe and keeps the embed image pointing at the safe name', () => {
    const view = fitView({
      embeds: [{ image: { url: 'attachment://rank history é.png' } }],
      files: [file('rank history é.png', 10), file('rank_history__.png', 10)],
    });
    expect(view.files!.map((f) => f.name)).toEqual(['rank_history__.png']);
    expect(view.embeds![0]!.image!.url).toBe('attachment://rank_history__.png');
  });

  it('lists the files as attachments by index in the payload, with their descriptions cut to 1,024 characters', () => {
    const payload = toMessagePayload({
      embeds: [{ image: { url: 'attachment://a.png' } }],
      files: [{ ...file('a.png', 3), description: 'x'.repeat(2000) }, file('b.png', 3)],
    });
    expect(payload.attachments).toEqual([
      { id: 0, filename: 'a.png', description: `${'x'.repeat(1023)}…` },
      { id: 1, filename: 'b.png' },
    ]);
    expect(payload.files!.map((f) => f.name)).toEqual(['a.png', 'b.png']);
    expect(toMessagePayload({ content: 'no files' })).not.toHaveProperty('attachments');
  });

  it('never sends more than Discord takes, whatever the files (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ name: fc.string({ maxLength: 120 }), bytes: fc.integer({ min: 0, max: 3 * 1024 * 1024 }) }), { maxLength: 15 }),
        (specs) => {
          const view = fitView({ files: specs.map((s) => file(s.name, s.bytes)) });
          const kept = view.files ?? [];
          expect(kept.length).toBeLessThanOrEqual(LIMITS.files);
          expect(kept.reduce((n, f) => n + f.data.byteLength, 0)).toBeLessThanOrEqual(LIMITS.fileBytes);
          expect(new Set(kept.map((f) => f.name)).size).toBe(kept.length);
          for (const f of kept) expect(f.name).toMatch(/^[A-Za-z0-9._-]{1,100}$/);
        },
      ),
      { numRuns: 200 },
    );
  });
});
