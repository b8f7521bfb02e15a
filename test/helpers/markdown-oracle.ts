/**
 * What Discord renders for a text, for tests: discord-markdown-parser (the parser the playground draws
 * with, src/playground/web/markdown.ts), in its embed flavour ("extended": masked links too), made
 * stricter where Discord is looser than the parser:
 * - mentions, custom emoji, slash-command mentions, guild navigation and timestamps match any id
 *   (the parser wants 17-20 digits; Discord draws `<@1>` as a mention pill all the same);
 * - list lines (`- item`, `* item`, `+ item`, `1. item`), which Discord draws as lists and the parser
 *   leaves as text, are reported as `list` nodes.
 */
import { rulesExtended, SimpleMarkdown } from 'discord-markdown-parser';

/** A node of the parsed tree (the fields the checks read). */
export interface MdNode {
  type: string;
  content?: string | MdNode[];
  name?: string;
  id?: string;
  target?: string;
  timestamp?: string;
}

type Rule = (typeof rulesExtended)[string];
const withMatch = (rule: Rule, re: RegExp): Rule => ({ ...rule, match: (source: string) => re.exec(source) });

const parser = SimpleMarkdown.parserFor({
  ...rulesExtended,
  user: withMatch(rulesExtended.user!, /^<@!?(\d+)>/),
  role: withMatch(rulesExtended.role!, /^<@&(\d+)>/),
  channel: withMatch(rulesExtended.channel!, /^<#(\d+)>/),
  emoji: withMatch(rulesExtended.emoji!, /^<(a)?:(\w+):(\d+)>/),
  slashCommand: withMatch(rulesExtended.slashCommand!, /^<\/([^:>\n]+):(\d+)>/),
  guildNavigation: withMatch(rulesExtended.guildNavigation!, /^<(\d+):(?:(customize|browse|guide)|(linked-roles)(:\d+)?)>/),
  timestamp: withMatch(rulesExtended.timestamp!, /^<t:(-?\d+)(?::([a-zA-Z]))?>/),
});

/**
 * `text` as the parser reads it before any rule: `\r\n` and `\r` as `\n`, a tab as four spaces, no
 * form feed (simple-markdown's preprocessing). Plain text is compared with this, not with the input.
 */
export const asRead = (text: string): string => SimpleMarkdown.preprocess(text);

/** A line Discord draws as a list item. */
const LIST_LINE = /^\s*([-*+]|\d+\.)\s/;

/** The tree Discord draws for `text` in an embed description, field value, title or field name. */
export function parseDiscord(text: string): MdNode[] {
  const lists = text
    .split('\n')
    .filter((line) => LIST_LINE.test(line))
    .map((): MdNode => ({ type: 'list' }));
  return [...(parser(text, { inline: true }) as MdNode[]), ...lists];
}

/** Nodes drawn as the characters they hold: text, line breaks, and Unicode emoji (drawn as images of themselves). */
const PLAIN = new Set(['text', 'br', 'twemoji']);

/** The characters a plain node shows. */
function shown(n: MdNode): string {
  if (n.type === 'br') return '\n';
  if (n.type === 'twemoji') return n.name ?? '';
  return typeof n.content === 'string' ? n.content : '';
}

/** What a member sees of `text` when it is drawn as plain text only; null when anything in it is drawn as markup. */
export function plainText(text: string): string | null {
  const nodes = parseDiscord(text);
  return nodes.every((n) => PLAIN.has(n.type)) ? nodes.map(shown).join('') : null;
}

/**
 * Everything in `text` drawn as markup, each once per occurrence, sorted: formatting by its type
 * (`strong`, `heading`, `list`…), and whatever points somewhere by what it points at (`user:123`,
 * `timestamp:1:R`, `url:https://x.y`), so a mention or link made of a member's text never passes for
 * one the bot wrote.
 */
export function markup(text: string): string[] {
  const out: string[] = [];
  const walk = (nodes: MdNode[]) => {
    for (const n of nodes) {
      if (!PLAIN.has(n.type))
        out.push(n.id !== undefined || n.target !== undefined || n.timestamp !== undefined ? `${n.type}:${n.id ?? n.target ?? n.timestamp}` : n.type);
      if (Array.isArray(n.content)) walk(n.content);
    }
  };
  walk(parseDiscord(text));
  return out.sort();
}

/** The runs of plain text of `text` (what lies between markup), as a member reads them. */
export function plainRuns(text: string): string[] {
  const runs: string[] = [''];
  const walk = (nodes: MdNode[]) => {
    for (const n of nodes) {
      if (PLAIN.has(n.type)) runs[runs.length - 1]! += shown(n);
      else {
        runs.push('');
        if (Array.isArray(n.content)) walk(n.content);
        runs.push('');
      }
    }
  };
  walk(parser(text, { inline: true }));
  return runs.filter(Boolean);
}
