/** A View as readable plain text, for the command-line preview. */
import { ButtonStyle, ComponentType, type APIEmbed } from 'discord-api-types/v10';
import type { MessagePayload } from './view.js';

/** A markdown text as Discord shows its escapes: a backslash before anything but a letter, digit or white space is hidden. */
function shown(markdown: string): string {
  return markdown.replace(/\\([^0-9A-Za-z\s])/g, '$1');
}

const kilobytes = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024)).toLocaleString('en')} KB`;

/** A payload (already within limits) as text, escapes shown as Discord shows them: embeds, then components with their custom IDs. */
export function payloadToText(payload: MessagePayload): string {
  const out: string[] = [];
  if (payload.flags & 64) out.push('(only you can see this)');
  if (payload.content) out.push(shown(payload.content));
  // A terminal shows no image: an image card's text follows its embed's own fields, its embeds follow its embed.
  const cardText = (e: APIEmbed) => {
    const url = e.image?.url;
    return url?.startsWith('attachment://') ? payload.files?.find((f) => `attachment://${f.name}` === url)?.text : undefined;
  };
  const embeds = payload.embeds.flatMap((e) => [{ e, card: cardText(e)?.fields ?? [] }, ...(cardText(e)?.embeds ?? []).map((x) => ({ e: x, card: [] }))]);
  for (const { e, card } of embeds) {
    const block: string[] = [];
    if (e.author?.name) block.push(e.author.name);
    if (e.title) block.push(`# ${shown(e.title)}`);
    if (e.description) block.push(shown(e.description));
    for (const f of [...(e.fields ?? []), ...card]) block.push(`${shown(f.name)}: ${shown(f.value).replace(/\n/g, '\n  ')}`);
    if (e.thumbnail?.url) block.push(`thumbnail: ${e.thumbnail.url}`);
    if (e.image?.url) block.push(`image: ${e.image.url}`);
    if (e.footer?.text) block.push(`— ${e.footer.text}`);
    out.push(block.join('\n'));
  }
  for (const row of payload.components) {
    const parts = row.components.map((c) => {
      if (c.type === ComponentType.Button) {
        const id = 'custom_id' in c ? c.custom_id : c.style === ButtonStyle.Link && 'url' in c ? c.url : '';
        return `[${'label' in c ? (c.label ?? '') : ''}${c.disabled ? ' (disabled)' : ''}] ${id}`;
      }
      if (c.type === ComponentType.StringSelect) {
        return `<${c.placeholder ?? 'select'}> ${c.custom_id}\n${c.options.map((o) => `    ${o.default ? '●' : '○'} ${o.label} = ${o.value}`).join('\n')}`;
      }
      return '';
    });
    out.push(parts.join('\n'));
  }
  if (payload.files?.length) out.push(payload.files.map((f) => `attachment: ${f.name} (${f.contentType}, ${kilobytes(f.data.byteLength)})`).join('\n'));
  return out.filter(Boolean).join('\n\n');
}
