/** Every message key as a type read from the English locale files (`namespace:path`, plurals without suffix): a missing key fails typecheck. */

/** Each command's file (src/i18n/locales/<lng>/commands/<name>.json): its names and descriptions, and its `messages`. */
interface CommandFiles {
  'Rivals profile': typeof import('./locales/en/commands/Rivals profile.json');
  achievements: typeof import('./locales/en/commands/achievements.json');
  alerts: typeof import('./locales/en/commands/alerts.json');
  battlepass: typeof import('./locales/en/commands/battlepass.json');
  compare: typeof import('./locales/en/commands/compare.json');
  config: typeof import('./locales/en/commands/config.json');
  hero: typeof import('./locales/en/commands/hero.json');
  items: typeof import('./locales/en/commands/items.json');
  ladder: typeof import('./locales/en/commands/ladder.json');
  last: typeof import('./locales/en/commands/last.json');
  leaderboard: typeof import('./locales/en/commands/leaderboard.json');
  link: typeof import('./locales/en/commands/link.json');
  maps: typeof import('./locales/en/commands/maps.json');
  match: typeof import('./locales/en/commands/match.json');
  meta: typeof import('./locales/en/commands/meta.json');
  'patch-notes': typeof import('./locales/en/commands/patch-notes.json');
  player: typeof import('./locales/en/commands/player.json');
  privacy: typeof import('./locales/en/commands/privacy.json');
  scout: typeof import('./locales/en/commands/scout.json');
  session: typeof import('./locales/en/commands/session.json');
  settings: typeof import('./locales/en/commands/settings.json');
  status: typeof import('./locales/en/commands/status.json');
  unlink: typeof import('./locales/en/commands/unlink.json');
}

/** `commands:<name>.*`: what `npm run deploy` registers, each file without its messages. */
type CommandTexts = { [N in keyof CommandFiles]: Omit<CommandFiles[N], 'messages'> };

/** `<name>:*`: a command's messages, the namespace named for each command whose file has them. */
type CommandMessages = {
  [N in keyof CommandFiles as CommandFiles[N] extends { messages: object } ? N : never]: CommandFiles[N] extends { messages: infer M } ? M : never;
};

type Namespaces = CommandMessages & {
  charts: typeof import('./locales/en/charts.json');
  commands: CommandTexts;
  common: typeof import('./locales/en/common.json');
  feeds: typeof import('./locales/en/feeds.json');
  messages: typeof import('./locales/en/messages.json');
  'playground-page': typeof import('./locales/en/playground-page.json');
  web: typeof import('./locales/en/web.json');
  render: typeof import('./locales/en/render.json');
};

/** i18next's plural suffixes. */
type WithoutPlural<K extends string> = K extends `${infer Base}_${'zero' | 'one' | 'two' | 'few' | 'many' | 'other'}` ? Base : K;

type Paths<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${WithoutPlural<K>}` : Paths<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** `player:sections.ranked`, `common:format.aside`. */
export type MessageKey = { [N in keyof Namespaces]: `${N}:${Paths<Namespaces[N]>}` }[keyof Namespaces];

/** `KeyIn<'messages'>` holds `notFound.player` for `messages:notFound.player`. */
export type KeyIn<N extends keyof Namespaces> = MessageKey extends infer K ? (K extends `${N}:${infer Rest}` ? Rest : never) : never;
