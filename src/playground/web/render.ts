/**
 * Draws a playground message as Discord does, with the Discord web components. Their "used /command", "Only you can see this"
 * and "(edited)" are English-only in their shadow DOM, so the page draws those itself, in the acting member's language.
 */
import type { APIEmbed, APIActionRowComponent, APIComponentInMessageActionRow } from 'discord-api-types/v10';
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
}

/** An image URL through the playground's proxy (the image when reachable, a placeholder otherwise). */
export const proxied = (url: string | undefined, kind: 'thumbnail' | 'image' | 'icon'): string | undefined =>
  // An attached file (a chart) is already here as a data: URL.
  url ? (url.startsWith('data:image/') ? url : `/img?kind=${kind}&src=${encodeURIComponent(url)}`) : undefined;

export const avatarOf = (id: string) => `/avatar/${id}.svg`;

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

const BUTTON_TYPES: Record<number, string> = { 1: 'primary', 2: 'secondary', 3: 'success', 4: 'destructive', 5: 'secondary', 6: 'primary' };

function renderComponents(message: PlaygroundMessage, rows: APIActionRowComponent<APIComponentInMessageActionRow>[], env: RenderEnv): HTMLElement {
  const container = el('discord-attachments', { slot: 'components', class: message.state === 'updating' ? 'updating' : undefined });
  for (const row of rows) {
    const actionRow = el('discord-action-row');
    for (const c of row.components) {
      if (c.type === 2) {
        const emoji = c.emoji?.name && !c.emoji.id ? `${c.emoji.name} ` : '';
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

const SVG = 'http://www.w3.org/2000/svg';

/** The eye before "Only you can see this". */
function eyeIcon(): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('class', 'ephemeral-icon');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS(SVG, 'path');
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
  user.style.color = who.colour;
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
    for (const embed of p.embeds) m.append(renderEmbed(embed, env));
    if (p.components.length) m.append(renderComponents(message, p.components, env));
  }
  if (message.ephemeral) m.append(renderEphemeralNote(message, env));
  return m;
}
