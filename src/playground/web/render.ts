/**
 * Draws a playground message as Discord does, with the Discord web components. Their "used /command", "Only you can see this"
 * and "(edited)" are English-only in their shadow DOM, so the page draws those itself, in the acting member's language.
 */
import type { APIEmbed, APIActionRowComponent, APIComponentInMessageActionRow } from 'discord-api-types/v10';
import { DiscordEmbed } from '@skyra/discord-components-core';
import type { MessagePayload } from '../../render/view.js';
import type { Bootstrap, MessageInteraction, PlaygroundMessage } from '../protocol.js';
import { el } from './dom.js';
import { markdownToText, renderMarkdown, type Viewer } from './markdown.js';

/** What drawing needs from the page: names and texts ({@link Viewer}), and what to do on a click. */
export interface RenderEnv extends Viewer {
  data: Bootstrap;
  /** Named in the viewer's language. */
  commandLabel(command: string, kind: 'slash' | 'user'): string;
  onButton(messageId: string, customId: string): void;
  onSelect(messageId: string, customId: string, values: string[]): void;
  onDismiss(messageId: string): void;
  /** Opens an image full size (Discord's image viewer); `name` the file to save it as. */
  onImage(url: string, name: string): void;
  /** Opens the playground's "In game" panel on the player `uid` (a proof of ownership's hint). */
  onInGame(uid: string): void;
}

/**
 * Embed images as Discord draws them: up to 400 px wide and 300 px high in the message (the component's own 300 px box
 * leaves a card's text a few pixels high), never wider than the channel leaves room for, and a pointer that says a click
 * opens them full size. The room is counted from the window (the page's columns, the avatar's gutter, the embed's
 * padding): a percentage would shrink the image to the embed's text, as the embed sizes itself to its content. On a
 * phone's width, the component's own 300 px, as the phone's answers were laid out for.
 * Added to the component's shadow styles once, before any embed is drawn.
 */
const EMBED_MEDIA = new CSSStyleSheet();
EMBED_MEDIA.replaceSync(`
  :host .discord-embed-image { display: block; max-width: min(400px, calc(100vw - 680px)); max-height: 300px; cursor: zoom-in; }
  @media (max-width: 900px) { :host .discord-embed-image { max-width: min(400px, calc(100vw - 330px)); } }
  @media (max-width: 600px) { :host .discord-embed-image { max-width: 300px; } }
`);
(DiscordEmbed as unknown as { elementStyles: (CSSStyleSheet | object)[] }).elementStyles.push(EMBED_MEDIA);

/** The proof of ownership's "Check now" button (commands/link.ts, route `lk.c`, the player's UID after it). */
const PROOF_CHECK = /^lk\.c:(\d+)$/;

/** An image URL through the playground's proxy (the image when reachable, a placeholder otherwise). */
export const proxied = (url: string | undefined, kind: 'thumbnail' | 'image' | 'icon'): string | undefined =>
  // An attached file (a chart) is already here as a data: URL.
  url ? (url.startsWith('data:image/') ? url : `/img?kind=${kind}&src=${encodeURIComponent(url)}`) : undefined;

export const avatarOf = (id: string) => `/avatar/${id}.svg`;

/** Discord's "no colour" for a role. */
export const NO_COLOUR = '#000000';
/** A name's colour when no role of its member has one. */
export const NAME_COLOUR = '#f2f3f5';

/** A member's name's colour, as Discord shows it everywhere: their highest role's that has one (`roles` highest first). */
export function nameColour(member: { roles: readonly string[] }, roles: Bootstrap['roles']): string {
  return roles.find((r) => member.roles.includes(r.id) && r.colour !== NO_COLOUR)?.colour ?? NAME_COLOUR;
}

const hex = (colour: number | undefined) => (colour === undefined ? undefined : `#${colour.toString(16).padStart(6, '0')}`);

/** Discord's embed field grid: up to three inline fields share a row; a non-inline field ends it. */
export function inlineIndexes(fields: { inline?: boolean }[]): (number | undefined)[] {
  let run = 0;
  return fields.map((f) => {
    if (!f.inline) {
      run = 0;
      return undefined;
    }
    run += 1;
    return ((run - 1) % 3) + 1;
  });
}

function renderEmbed(embed: APIEmbed, env: RenderEnv): HTMLElement {
  // Discord renders markdown in titles and field names (drawn here as text, escapes resolved), not in author names or footers.
  const text = (s: string | undefined) => (s === undefined ? undefined : markdownToText(s, env));
  const e = el('discord-embed', {
    slot: 'embeds',
    color: hex(embed.color),
    embedTitle: text(embed.title),
    url: embed.url,
    authorName: embed.author?.name,
    authorImage: proxied(embed.author?.icon_url, 'icon'),
    authorUrl: embed.author?.url,
    thumbnail: proxied(embed.thumbnail?.url, 'thumbnail'),
    image: proxied(embed.image?.url, 'image'),
  });
  const image = proxied(embed.image?.url, 'image');
  if (image) {
    // The image is in the component's shadow root: a click that started on it opens it full size.
    e.addEventListener('click', (event) => {
      const target = event.composedPath()[0];
      if (target instanceof HTMLImageElement && target.classList.contains('discord-embed-image')) env.onImage(image, fileName(embed.image!.url));
    });
  }
  if (embed.description) e.append(el('discord-embed-description', { slot: 'description' }, [renderMarkdown(embed.description, env)]));
  if (embed.fields?.length) {
    const indexes = inlineIndexes(embed.fields);
    e.append(
      el(
        'discord-embed-fields',
        { slot: 'fields' },
        embed.fields.map((f, i) =>
          el('discord-embed-field', { fieldTitle: text(f.name), inline: Boolean(f.inline), inlineIndex: indexes[i] }, [renderMarkdown(f.value, env)]),
        ),
      ),
    );
  }
  // Written here, in the member's language: the component writes any date it is given as an American one (03/05/2026).
  const date = embed.timestamp ? env.messages.discordDate(new Date(embed.timestamp)) : undefined;
  if (embed.footer?.text) {
    const when = date === undefined ? [] : [el('span', { class: 'footer-separator' }, ['•']), date];
    e.append(el('discord-embed-footer', { slot: 'footer', footerImage: proxied(embed.footer.icon_url, 'icon') }, [embed.footer.text, ...when]));
  } else if (date !== undefined) {
    // With no footer text Discord shows the date alone.
    e.append(el('discord-embed-footer', { slot: 'footer' }, [date]));
  }
  return e;
}

/** The file name an image is saved as: an attachment's own, else the URL's last segment. */
function fileName(url: string): string {
  if (url.startsWith('data:')) return 'image.png';
  return decodeURIComponent(new URL(url, location.href).pathname.split('/').pop() || 'image');
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** A small inline SVG icon from one path. */
function icon(className: string, d: string, viewBox = '0 0 24 24'): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', viewBox);
  svg.setAttribute('class', className);
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS(SVG_NS, 'path');
  path.setAttribute('fill', 'currentColor');
  path.setAttribute('d', d);
  svg.append(path);
  return svg;
}

const FILE_ICON = 'M6 2h8l6 6v12a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2Zm7 1.5V9h5.5L13 3.5ZM8 13h8v1.5H8V13Zm0 3h8v1.5H8V16Z';
const DOWNLOAD_ICON = 'M12 3a1 1 0 0 1 1 1v9.6l3.3-3.3 1.4 1.4L12 17.4l-5.7-5.7 1.4-1.4 3.3 3.3V4a1 1 0 0 1 1-1ZM5 19h14v2H5v-2Z';

/**
 * A message's files as Discord shows them, after its text: an image inline (within 550 × 350, a click opens it full size),
 * any other file as a box with its name (a download link) and size. Files an embed shows as its image are not repeated.
 */
function renderAttachments(p: MessagePayload, env: RenderEnv): HTMLElement | undefined {
  const inEmbeds = new Set(p.embeds.flatMap((e) => (e.image?.url ? [e.image.url] : [])));
  const files = (p.attachments ?? []).filter((a) => a.url !== undefined && !inEmbeds.has(a.url));
  if (files.length === 0) return undefined;
  return el(
    'div',
    { slot: 'attachments', class: 'attachments' },
    files.map((a) => {
      const url = a.url!;
      if (a.content_type?.startsWith('image/')) {
        const img = el<HTMLImageElement>('img', {
          class: 'attachment-image',
          src: url,
          alt: a.description ?? a.filename,
          title: env.messages.frame('openFull'),
        });
        img.addEventListener('click', () => env.onImage(url, a.filename));
        return img;
      }
      const name = el('a', { class: 'attachment-file-name', href: url, download: a.filename }, [a.filename]);
      const size = el('div', { class: 'attachment-file-size' }, [a.size === undefined ? '' : env.messages.fileSize(a.size)]);
      const save = el('a', { class: 'attachment-file-download', href: url, download: a.filename, title: env.messages.frame('download') }, [
        icon('attachment-file-download-icon', DOWNLOAD_ICON),
      ]);
      save.setAttribute('aria-label', env.messages.frame('download'));
      return el('div', { class: 'attachment-file', 'data-filename': a.filename }, [
        icon('attachment-file-icon', FILE_ICON),
        el('div', { class: 'attachment-file-text' }, [name, size]),
        save,
      ]);
    }),
  );
}

/** Under a proof of ownership's "Check now": the playground's way to do the proof's step, clearly not the bot's. */
function renderProofHint(components: MessagePayload['components'], env: RenderEnv): HTMLElement | undefined {
  const uid = components
    .flatMap((r) => r.components)
    .map((c) => ('custom_id' in c ? PROOF_CHECK.exec(c.custom_id)?.[1] : undefined))
    .find((x) => x !== undefined);
  if (uid === undefined) return undefined;
  const hint = el('button', { type: 'button', class: 'playground-hint', 'data-uid': uid }, [env.messages.frame('inGameHint')]);
  hint.addEventListener('click', () => env.onInGame(uid));
  return el('div', { slot: 'components' }, [hint]);
}

const BUTTON_TYPES: Record<number, string> = { 1: 'primary', 2: 'secondary', 3: 'success', 4: 'destructive', 5: 'secondary', 6: 'primary' };

function renderComponents(message: PlaygroundMessage, rows: APIActionRowComponent<APIComponentInMessageActionRow>[], env: RenderEnv): HTMLElement {
  const container = el('discord-attachments', { slot: 'components', class: message.state === 'updating' ? 'updating' : undefined });
  for (const row of rows) {
    const actionRow = el('discord-action-row');
    for (const c of row.components) {
      if (c.type === 2) {
        const emoji = 'emoji' in c && c.emoji?.name && !c.emoji.id ? `${c.emoji.name} ` : '';
        const label = `${emoji}${'label' in c && c.label ? c.label : ''}`.trim();
        const url = 'url' in c ? c.url : undefined;
        const button = el(
          'discord-button',
          { type: BUTTON_TYPES[c.style] ?? 'secondary', disabled: Boolean(c.disabled), url, 'data-custom-id': 'custom_id' in c ? c.custom_id : undefined },
          [label],
        );
        if (!url && 'custom_id' in c && !c.disabled) {
          const customId = c.custom_id;
          button.addEventListener('click', () => env.onButton(message.id, customId));
        }
        actionRow.append(button);
      } else if (c.type === 3) {
        const chosen = c.options.find((o) => o.default);
        const menu = el('discord-string-select-menu', {
          placeholder: chosen?.label ?? c.placeholder ?? env.messages.discordSelectPlaceholder(),
          disabled: Boolean(c.disabled),
          'data-custom-id': c.custom_id,
        });
        for (const o of c.options) {
          const emoji = o.emoji?.name && !o.emoji.id ? `${o.emoji.name} ` : '';
          const option = el('discord-string-select-menu-option', { label: `${emoji}${o.label}`, description: o.description, 'data-value': o.value });
          (option as unknown as { selectOption: () => void }).selectOption = () => env.onSelect(message.id, c.custom_id, [o.value]);
          menu.append(option);
        }
        actionRow.append(menu);
      }
    }
    container.append(actionRow);
  }
  return container;
}

/** The eye before "Only you can see this". */
function eyeIcon(): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('class', 'ephemeral-icon');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS(SVG_NS, 'path');
  // An almond with an iris and a pupil, cut out of it (even-odd).
  path.setAttribute('fill-rule', 'evenodd');
  path.setAttribute('fill', 'currentColor');
  path.setAttribute(
    'd',
    'M8 3C4.6 3 1.8 5 .5 8c1.3 3 4.1 5 7.5 5s6.2-2 7.5-5C14.2 5 11.4 3 8 3Zm0 8.4a3.4 3.4 0 1 1 0-6.8 3.4 3.4 0 0 1 0 6.8ZM8 6.3a1.7 1.7 0 1 0 0 3.4 1.7 1.7 0 0 0 0-3.4Z',
  );
  svg.append(path);
  return svg;
}

/**
 * The header above an answer, in the member's language and word order (`discordUsed`): avatar, name in the role's colour, and the
 * command, a pill for a slash command and blue text for a context-menu app.
 */
function renderCommandHeader(who: Bootstrap['members'][number], command: string, kind: MessageInteraction['kind'], env: RenderEnv): HTMLElement {
  const avatar = el<HTMLImageElement>('img', { class: 'command-avatar', src: avatarOf(who.id), alt: '' });
  const user = el('span', { class: 'command-user' }, [who.name]);
  user.style.color = nameColour(who, env.data.roles);
  // A component's message keeps the command that made it; a name no command has is kept as it is.
  const label = env.commandLabel(command, kind === 'user' ? 'user' : 'slash');
  const name = el('span', { class: kind === 'user' ? 'command-name context' : 'command-name' }, [label]);
  const parts = env.messages
    .discordUsed<HTMLElement>(user, name)
    .flatMap((part) => (part === user ? [avatar, user] : [typeof part === 'string' ? el('span', { class: 'command-words' }, [part]) : part]));
  return el('div', { slot: 'reply', class: 'command-header' }, parts);
}

/** "Only you can see this • Dismiss message" under an ephemeral message, in the member's language; the link hides the message. */
function renderEphemeralNote(message: PlaygroundMessage, env: RenderEnv): HTMLElement {
  const dismiss = el('span', { class: 'ephemeral-dismiss', tabIndex: 0 }, [env.messages.discordDismissMessage()]);
  dismiss.setAttribute('role', 'button');
  dismiss.addEventListener('click', () => env.onDismiss(message.id));
  dismiss.addEventListener('keydown', (e) => {
    if (e.key !== ' ' && e.key !== 'Enter') return;
    e.preventDefault();
    env.onDismiss(message.id);
  });
  // After the components: the last of the message's blocks, where Discord writes it.
  return el('div', { slot: 'components', class: 'ephemeral-note' }, [eyeIcon(), `${env.messages.discordOnlyYou()} • `, dismiss]);
}

/** The `<discord-message>` for a playground message. */
export function renderMessage(message: PlaygroundMessage, env: RenderEnv): HTMLElement {
  const { bot, members } = env.data;
  const m = el('discord-message', {
    author: bot.name,
    avatar: avatarOf(bot.id),
    bot: true,
    // A string, which the component shows as it is (a Date it writes as an American date).
    timestamp: env.messages.discordDate(new Date(message.createdAt)),
    'data-message-id': message.id,
    class: message.ephemeral ? `state-${message.state} ephemeral` : `state-${message.state}`,
  });
  const { interaction } = message;
  const who = interaction && members.find((x) => x.id === interaction.userId);
  if (interaction && who && interaction.command) m.append(renderCommandHeader(who, interaction.command, interaction.kind, env));
  if (message.state === 'thinking' || !message.payload) {
    m.append(el('span', { class: 'thinking' }, [env.messages.discordThinking(bot.name), el('span', { class: 'dots' }, ['...'])]));
  } else {
    const p = message.payload;
    if (p.content) m.append(renderMarkdown(p.content, env));
    // Discord's muted mark, a space after the text (alone above the embeds when there is none, where the space collapses).
    if (message.editedAt !== undefined) m.append(' ', el('span', { class: 'edited-mark' }, [env.messages.discordEdited()]));
    const files = renderAttachments(p, env);
    if (files) m.append(files);
    for (const embed of p.embeds) m.append(renderEmbed(embed, env));
    if (p.components.length) m.append(renderComponents(message, p.components, env));
    const hint = env.data.replica ? renderProofHint(p.components, env) : undefined;
    if (hint) m.append(hint);
  }
  if (message.ephemeral) m.append(renderEphemeralNote(message, env));
  return m;
}
