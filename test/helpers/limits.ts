/**
 * Discord's message limits as tests check them: one complete list of the limits a View or a
 * MessagePayload can break (src/render/limits.ts `LIMITS`, from Discord's "Embed Limits", "Message
 * Components" and "Create Message"), used by test/commands/limits-property.test.ts and the views
 * tests of test/i18n.
 */
import { ComponentType, type APIEmbed } from 'discord-api-types/v10';
import { expect } from 'vitest';
import { embedLength, LIMITS } from '../../src/render/limits.js';
import { toMessagePayload, type MessagePayload, type View } from '../../src/render/view.js';

/** A message as a handler returns it (a View) or as it is sent (a MessagePayload). */
export type Message = View | MessagePayload;

/**
 * Every limit `message` breaks, one line each (`title "…": 300 > 256`); [] when it is within all:
 * content 2,000; at most 10 embeds, 6,000 characters in all (src/render/limits.ts `embedLength`); per
 * embed a title of 256, a description of 4,096, an author name of 256, a footer of 2,048, at most 25
 * fields with non-empty names of 256 and values of 1,024; at most 5 action rows of at most 5 buttons or
 * one select menu alone; custom IDs of 100; button labels of 80; select placeholders of 150; at most 25
 * options with distinct values, non-empty labels of 100, values of 100 and descriptions of 100; at most
 * 10 files, 8 MB in all, with alt texts of 1,024. Lengths are UTF-16 code units, as LIMITS counts them.
 */
export function limitBreaks(message: Message): string[] {
  const out: string[] = [];
  const cut = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
  const check = (what: string, length: number, max: number) => void (length > max && out.push(`${what}: ${length} > ${max}`));
  check('content', message.content?.length ?? 0, LIMITS.content);
  const embeds: APIEmbed[] = message.embeds ?? [];
  check('embeds', embeds.length, LIMITS.embeds);
  check(
    'embed total',
    embeds.reduce((s, e) => s + embedLength(e), 0),
    LIMITS.embedTotal,
  );
  embeds.forEach((e, i) => {
    const at = `embed ${i + 1}`;
    check(`${at} title ${cut(e.title ?? '')}`, e.title?.length ?? 0, LIMITS.title);
    check(`${at} description`, e.description?.length ?? 0, LIMITS.description);
    check(`${at} author ${cut(e.author?.name ?? '')}`, e.author?.name.length ?? 0, LIMITS.author);
    check(`${at} footer ${cut(e.footer?.text ?? '')}`, e.footer?.text.length ?? 0, LIMITS.footer);
    check(`${at} fields`, e.fields?.length ?? 0, LIMITS.fields);
    for (const f of e.fields ?? []) {
      check(`${at} field name ${cut(f.name)}`, f.name.length, LIMITS.fieldName);
      check(`${at} value of field ${cut(f.name)}`, f.value.length, LIMITS.fieldValue);
      if (f.name.length === 0 || f.value.length === 0) out.push(`${at} field ${cut(f.name)}: empty name or value`);
    }
  });
  const rows = message.components ?? [];
  check('action rows', rows.length, LIMITS.actionRows);
  rows.forEach((row, i) => {
    const at = `row ${i + 1}`;
    check(`${at} components`, row.components.length, LIMITS.buttonsPerRow);
    if (row.components.length > 1 && row.components.some((c) => c.type !== ComponentType.Button)) out.push(`${at}: a select menu shares its row`);
    for (const c of row.components) {
      if ('custom_id' in c) check(`${at} custom ID ${cut(c.custom_id)}`, c.custom_id.length, LIMITS.customId);
      if (c.type === ComponentType.Button && 'label' in c && c.label !== undefined) check(`${at} button ${cut(c.label)}`, c.label.length, LIMITS.buttonLabel);
      if ('placeholder' in c && c.placeholder !== undefined) check(`${at} placeholder ${cut(c.placeholder)}`, c.placeholder.length, LIMITS.placeholder);
      if (c.type === ComponentType.StringSelect) {
        check(`${at} options`, c.options.length, LIMITS.selectOptions);
        // Discord refuses a select menu whose options repeat a value.
        if (new Set(c.options.map((o) => o.value)).size !== c.options.length) out.push(`${at}: repeated option values`);
        for (const o of c.options) {
          check(`${at} option label ${cut(o.label)}`, o.label.length, LIMITS.optionLabel);
          if (o.label.length === 0) out.push(`${at}: empty option label`);
          check(`${at} option value ${cut(o.value)}`, o.value.length, LIMITS.optionValue);
          check(`${at} description of option ${cut(o.label)}`, o.description?.length ?? 0, LIMITS.optionDescription);
        }
      }
    }
  });
  const files = message.files ?? [];
  check('files', files.length, LIMITS.files);
  check(
    'file bytes',
    files.reduce((s, f) => s + f.data.byteLength, 0),
    LIMITS.fileBytes,
  );
  for (const f of files) check(`alt text of ${f.name}`, f.description?.length ?? 0, LIMITS.attachmentDescription);
  return out;
}

/** Asserts that `message` breaks none of Discord's limits ({@link limitBreaks}); `where` names it in the failure. */
export function expectWithin(message: Message, where: string): void {
  expect(limitBreaks(message), where).toEqual([]);
}

/**
 * Every text a member reads in a message, in order: content, embed texts, button labels, select
 * placeholders, option labels and descriptions, and the alt text of its files; '' where a text is absent.
 */
export function messageTexts(message: Message): string[] {
  const out: string[] = [message.content ?? ''];
  for (const e of message.embeds ?? []) {
    out.push(e.title ?? '', e.description ?? '', e.author?.name ?? '', e.footer?.text ?? '');
    for (const f of e.fields ?? []) out.push(f.name, f.value);
  }
  for (const row of message.components ?? []) {
    for (const c of row.components) {
      if ('label' in c && c.label) out.push(c.label);
      if ('placeholder' in c && c.placeholder) out.push(c.placeholder);
      if ('options' in c) for (const o of c.options) out.push(o.label, o.description ?? '');
    }
  }
  for (const f of message.files ?? []) out.push(f.description ?? '');
  return out;
}

/**
 * Asserts that a View, as the handler built it (before src/render/limits.ts `fitView` cuts anything),
 * is within every limit, and that the payload sent for it is within them too with every text and
 * embed unchanged: a translation too long fails here instead of being cut with an ellipsis.
 */
export function expectFitsUncut(view: View, where: string): void {
  expectWithin(view, where);
  const sent = toMessagePayload(view);
  expectWithin(sent, `${where}, as sent`);
  expect(messageTexts(sent), `${where}: cut when sent`).toEqual(messageTexts(view));
  expect(sent.embeds, `${where}: embeds changed when sent`).toEqual((view.embeds ?? []).map((e) => JSON.parse(JSON.stringify(e)) as APIEmbed));
}
