/**
 * Draws a playground message as Discord does, with the Discord web components: the bot's name and
 * avatar, the "used /command" header, content, embeds (colour bar, author, title, description,
 * inline field grid, thumbnail, image, footer, timestamp), buttons and select menus, the
 * ephemeral "Only you can see this" line, the "(edited)" mark of a message the bot edited, and the
 * "thinking" placeholder of a deferred answer.
 *
 * What Discord's client writes itself is in the acting member's language ({@link RenderEnv.messages}):
 * "is thinking", a select menu's default placeholder, unknown mentions and dates. The components
 * write "used", "Only you can see this", "Dismiss message", "(edited)" and the bot's "App" tag inside
 * their shadow DOM, in English, with no property to change them: those stay English.
 */
import type { APIEmbed, APIActionRowComponent, APIComponentInMessageActionRow } from 'discord-api-types/v10';
import type { Bootstrap, PlaygroundMessage } from '../protocol.js';
import { el } from './dom.js';
import { markdownToText, renderMarkdown, type Viewer } from './markdown.js';

/** What drawing needs from the page: the guild's names and the acting member's texts ({@link Viewer}), and what to do on a click. */
export interface RenderEnv extends Viewer {
  data: Bootstrap;
  /** A button was pressed on a message. */
  onButton(messageId: string, customId: string): void;
  /** A select-menu option was picked on a message. */
  onSelect(messageId: string, customId: string, values: string[]): void;
  /** An ephemeral message was dismissed. */
  onDismiss(messageId: string): void;
}

/** An image URL through the playground's proxy (the real image when reachable, a placeholder otherwise). */
export const proxied = (url: string | undefined, kind: 'thumbnail' | 'image' | 'icon'): string | undefined =>
  // An attached file (a chart) is already here, as a data: URL (src/playground/messages.ts, asPosted).
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
        embed.fields.map((f, i) => el('discord-embed-field', { fieldTitle: text(f.name), inline: Boolean(f.inline), inlineIndex: indexes[i] }, [renderMarkdown(f.value, env)])),
      ),
    );
  }
  // The date is written here, in the member's language: the component writes its timestamp as an
  // American date (03/05/2026), and reads any date string it is given back into one.
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
        const button = el('discord-button', { type: BUTTON_TYPES[c.style] ?? 'secondary', disabled: Boolean(c.disabled), url, 'data-custom-id': 'custom_id' in c ? c.custom_id : undefined }, [label]);
        if (!url && 'custom_id' in c && !c.disabled) {
          const customId = c.custom_id;
          button.addEventListener('click', () => env.onButton(message.id, customId));
        }
        actionRow.append(button);
      } else if (c.type === 3) {
        const chosen = c.options.find((o) => o.default);
        const menu = el('discord-string-select-menu', { placeholder: chosen?.label ?? c.placeholder ?? env.messages.discordSelectPlaceholder(), disabled: Boolean(c.disabled), 'data-custom-id': c.custom_id });
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

/** The `<discord-message>` for a playground message. */
export function renderMessage(message: PlaygroundMessage, env: RenderEnv): HTMLElement {
  const { bot, members } = env.data;
  const m = el('discord-message', {
    author: bot.name,
    avatar: avatarOf(bot.id),
    bot: true,
    ephemeral: message.ephemeral,
    // A string, which the component shows as it is (a Date it writes as an American date).
    timestamp: env.messages.discordDate(new Date(message.createdAt)),
    // The component draws Discord's small muted "(edited)" after the message's text.
    edited: message.editedAt !== undefined,
    'data-message-id': message.id,
    class: `state-${message.state}`,
  });
  if (message.ephemeral) (m as unknown as { dismissMessageClicked: () => void }).dismissMessageClicked = () => env.onDismiss(message.id);
  const who = message.interaction && members.find((x) => x.id === message.interaction!.userId);
  if (message.interaction && who && message.interaction.command) {
    m.append(
      el('discord-command', {
        slot: 'reply',
        author: who.name,
        avatar: avatarOf(who.id),
        roleColor: who.colour,
        command: message.interaction.command,
        type: message.interaction.kind === 'user' ? 'user_command' : 'slash_command',
      }),
    );
  }
  if (message.state === 'thinking' || !message.payload) {
    m.append(el('span', { class: 'thinking' }, [env.messages.discordThinking(bot.name), el('span', { class: 'dots' }, ['...'])]));
    return m;
  }
  const p = message.payload;
  if (p.content) m.append(renderMarkdown(p.content, env));
  for (const embed of p.embeds) m.append(renderEmbed(embed, env));
  if (p.components.length) m.append(renderComponents(message, p.components, env));
  return m;
}
