/**
 * Discord markdown to DOM with discord-markdown-parser and the Discord web components. Lists, which that parser leaves as text,
 * are split out here first, outside code blocks. Nothing is inserted as HTML: every text becomes a text node.
 */
import { parse } from 'discord-markdown-parser';
import { el } from './dom.js';
import type { PageMessages } from './messages.js';

export interface MentionNames {
  user(id: string): string | undefined;
  channel(id: string): string | undefined;
  role(id: string): { name: string; colour: string } | undefined;
}

/** The guild's names for mentions, and Discord's client texts in the acting member's language. */
export interface Viewer {
  names: MentionNames;
  messages: PageMessages;
}

interface Node {
  type: string;
  content?: string | Node[];
  target?: string;
  id?: string;
  level?: number;
  timestamp?: string;
  format?: string;
  name?: string;
  lang?: string;
}

/** Discord's `<t:unix:style>` timestamps in `locale` (the browser's when undefined). */
export function formatTimestamp(unix: number, style = 'f', locale?: string, now = Date.now()): string {
  const date = new Date(unix * 1000);
  const f = (o: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locale, o).format(date);
  switch (style) {
    case 't':
      return f({ timeStyle: 'short' });
    case 'T':
      return f({ timeStyle: 'medium' });
    case 'd':
      return f({ dateStyle: 'short' });
    case 'D':
      return f({ dateStyle: 'long' });
    case 'F':
      return f({ dateStyle: 'full', timeStyle: 'short' });
    case 'R': {
      const seconds = Math.round((date.getTime() - now) / 1000);
      const units: [Intl.RelativeTimeFormatUnit, number][] = [
        ['year', 31_536_000],
        ['month', 2_592_000],
        ['day', 86_400],
        ['hour', 3_600],
        ['minute', 60],
        ['second', 1],
      ];
      const [unit, size] = units.find(([, s]) => Math.abs(seconds) >= s) ?? ['second', 1];
      return new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(Math.round(seconds / size), unit);
    }
    default:
      return f({ dateStyle: 'long', timeStyle: 'short' });
  }
}

function safeHref(target: string | undefined): string | undefined {
  if (!target) return undefined;
  try {
    const url = new URL(target);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function textOf(content: Node['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((n) => textOf(n.content)).join('');
}

function draw(nodes: Node[], viewer: Viewer): (globalThis.Node | string)[] {
  return nodes.map((n) => drawOne(n, viewer));
}

function drawOne(n: Node, viewer: Viewer): globalThis.Node | string {
  const { names, messages } = viewer;
  const inner = () => (typeof n.content === 'string' ? [n.content] : draw(n.content ?? [], viewer));
  switch (n.type) {
    case 'text':
      return textOf(n.content);
    case 'strong':
      return el('discord-bold', {}, inner());
    case 'em':
      return el('discord-italic', {}, inner());
    case 'underline':
      return el('discord-underlined', {}, inner());
    case 'strikethrough':
      return el('s', {}, inner());
    case 'inlineCode':
      return el('discord-code', {}, [textOf(n.content)]);
    case 'codeBlock':
      return el('discord-code', { multiline: true }, [textOf(n.content)]);
    case 'blockQuote':
      return el('discord-quote', {}, inner());
    case 'spoiler':
      return el('discord-spoiler', {}, inner());
    case 'heading':
      return el('discord-header', { level: Math.min(3, Math.max(1, n.level ?? 1)) }, inner());
    case 'subtext':
      return el('discord-subscript', {}, inner());
    case 'br':
    case 'newline':
      return el('br');
    case 'url':
    case 'autolink':
    case 'link': {
      const href = safeHref(n.target);
      return href ? el('discord-link', { href, target: '_blank', rel: 'noopener noreferrer' }, inner()) : el('span', {}, inner());
    }
    case 'user':
      return el('discord-mention', { type: 'user' }, [names.user(n.id ?? '') ?? messages.discordUnknownUser()]);
    case 'channel':
      return el('discord-mention', { type: 'channel' }, [names.channel(n.id ?? '') ?? messages.discordUnknownChannel()]);
    case 'role': {
      const role = names.role(n.id ?? '');
      return el('discord-mention', { type: 'role', color: role?.colour }, [role?.name ?? messages.discordUnknownRole()]);
    }
    case 'everyone':
      return el('discord-mention', { type: 'role' }, ['everyone']);
    case 'here':
      return el('discord-mention', { type: 'role' }, ['here']);
    case 'slashCommand':
      return el('discord-mention', { type: 'slash' }, [textOf(n.content) || n.name || '']);
    case 'timestamp':
      return el('discord-time', {}, [formatTimestamp(Number(n.timestamp), n.format, messages.locale)]);
    case 'emoji':
      return `:${n.name ?? ''}:`;
    case 'twemoji':
      return n.name ?? textOf(n.content);
    default:
      return typeof n.content === 'string' ? n.content : el('span', {}, inner());
  }
}

const LIST_ITEM = /^(\s*)([-*]|\d{1,3}\.)\s+(.*)$/;

/** Splits text into runs of list lines and other text, leaving code blocks whole. */
function blocks(text: string): ({ kind: 'text'; text: string } | { kind: 'list'; ordered: boolean; items: string[] })[] {
  const out: ({ kind: 'text'; text: string } | { kind: 'list'; ordered: boolean; items: string[] })[] = [];
  let inFence = false;
  for (const line of text.split('\n')) {
    const fences = (line.match(/```/g) ?? []).length;
    const item = !inFence ? line.match(LIST_ITEM) : null;
    if (fences % 2 === 1) inFence = !inFence;
    const last = out[out.length - 1];
    if (item) {
      const ordered = /\d/.test(item[2]!);
      if (last?.kind === 'list' && last.ordered === ordered) last.items.push(item[3]!);
      else out.push({ kind: 'list', ordered, items: [item[3]!] });
    } else if (last?.kind === 'text') last.text += `\n${line}`;
    else out.push({ kind: 'text', text: line });
  }
  return out;
}

/**
 * Draws Discord markdown as `viewer` sees it. `extended` allows masked links (`[text](url)`), which
 * Discord renders in embeds and bot messages only.
 */
export function renderMarkdown(text: string, viewer: Viewer, extended = true): DocumentFragment {
  const fragment = document.createDocumentFragment();
  for (const block of blocks(text)) {
    if (block.kind === 'text') {
      fragment.append(...draw(parse(block.text, extended ? 'extended' : 'normal') as Node[], viewer));
    } else {
      const items = block.items.map((item) => el('discord-list-item', {}, draw(parse(item, extended ? 'extended' : 'normal') as Node[], viewer)));
      fragment.append(el(block.ordered ? 'discord-ordered-list' : 'discord-unordered-list', {}, items));
    }
  }
  return fragment;
}

/**
 * Discord markdown as plain text, as `viewer` sees it, for the places the components take a string
 * (embed title and field names): escapes resolved (`Zarbon\_` shows `Zarbon_`), formatting dropped,
 * mentions as `@name` and `#channel`.
 */
export function markdownToText(text: string, viewer: Viewer): string {
  const { names, messages } = viewer;
  const flat = (nodes: Node[]): string =>
    nodes
      .map((n) => {
        if (n.type === 'user') return `@${names.user(n.id ?? '') ?? messages.discordUnknownUser()}`;
        if (n.type === 'channel') return `#${names.channel(n.id ?? '') ?? messages.discordUnknownChannel()}`;
        if (n.type === 'role') return `@${names.role(n.id ?? '')?.name ?? messages.discordUnknownRole()}`;
        if (n.type === 'timestamp') return formatTimestamp(Number(n.timestamp), n.format, messages.locale);
        if (n.type === 'br' || n.type === 'newline') return ' ';
        return typeof n.content === 'string' ? n.content : flat(n.content ?? []);
      })
      .join('');
  return flat(parse(text, 'extended') as Node[]);
}
