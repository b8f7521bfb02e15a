/** Every message key as a type read from the English locale files (`namespace:path`, plurals without suffix): a missing key fails typecheck. */

/** A command's file: its names and descriptions, and `messages`, its own namespace. */
type CommandFile<F> = Omit<F, 'messages'>;

/** `commands:<name>.*`: one file per command (src/i18n/locales/<lng>/commands/<name>.json), one key each. */
interface CommandTexts {
  'Rivals profile': CommandFile<typeof import('./locales/en/commands/Rivals profile.json')>;
  achievements: CommandFile<typeof import('./locales/en/commands/achievements.json')>;
  alerts: CommandFile<typeof import('./locales/en/commands/alerts.json')>;
  battlepass: CommandFile<typeof import('./locales/en/commands/battlepass.json')>;
  compare: CommandFile<typeof import('./locales/en/commands/compare.json')>;
  config: CommandFile<typeof import('./locales/en/commands/config.json')>;
  hero: CommandFile<typeof import('./locales/en/commands/hero.json')>;
  items: CommandFile<typeof import('./locales/en/commands/items.json')>;
  ladder: CommandFile<typeof import('./locales/en/commands/ladder.json')>;
  last: CommandFile<typeof import('./locales/en/commands/last.json')>;
  leaderboard: CommandFile<typeof import('./locales/en/commands/leaderboard.json')>;
  link: CommandFile<typeof import('./locales/en/commands/link.json')>;
  maps: CommandFile<typeof import('./locales/en/commands/maps.json')>;
  match: CommandFile<typeof import('./locales/en/commands/match.json')>;
  meta: CommandFile<typeof import('./locales/en/commands/meta.json')>;
  'patch-notes': CommandFile<typeof import('./locales/en/commands/patch-notes.json')>;
  player: CommandFile<typeof import('./locales/en/commands/player.json')>;
  privacy: CommandFile<typeof import('./locales/en/commands/privacy.json')>;
  scout: CommandFile<typeof import('./locales/en/commands/scout.json')>;
  session: CommandFile<typeof import('./locales/en/commands/session.json')>;
  settings: CommandFile<typeof import('./locales/en/commands/settings.json')>;
  status: CommandFile<typeof import('./locales/en/commands/status.json')>;
  unlink: CommandFile<typeof import('./locales/en/commands/unlink.json')>;
}

/** `<name>:*`: a command's messages, the `messages` of its file (commands/<name>.json), beside its names and descriptions. */
interface CommandMessages {
  achievements: (typeof import('./locales/en/commands/achievements.json'))['messages'];
  battlepass: (typeof import('./locales/en/commands/battlepass.json'))['messages'];
  items: (typeof import('./locales/en/commands/items.json'))['messages'];
  maps: (typeof import('./locales/en/commands/maps.json'))['messages'];
  'patch-notes': (typeof import('./locales/en/commands/patch-notes.json'))['messages'];
  alerts: (typeof import('./locales/en/commands/alerts.json'))['messages'];
  compare: (typeof import('./locales/en/commands/compare.json'))['messages'];
  config: (typeof import('./locales/en/commands/config.json'))['messages'];
  hero: (typeof import('./locales/en/commands/hero.json'))['messages'];
  ladder: (typeof import('./locales/en/commands/ladder.json'))['messages'];
  leaderboard: (typeof import('./locales/en/commands/leaderboard.json'))['messages'];
  link: (typeof import('./locales/en/commands/link.json'))['messages'];
  match: (typeof import('./locales/en/commands/match.json'))['messages'];
  meta: (typeof import('./locales/en/commands/meta.json'))['messages'];
  player: (typeof import('./locales/en/commands/player.json'))['messages'];
  privacy: (typeof import('./locales/en/commands/privacy.json'))['messages'];
  session: (typeof import('./locales/en/commands/session.json'))['messages'];
  settings: (typeof import('./locales/en/commands/settings.json'))['messages'];
  status: (typeof import('./locales/en/commands/status.json'))['messages'];
}

interface Namespaces extends CommandMessages {
  charts: typeof import('./locales/en/charts.json');
  commands: CommandTexts;
  common: typeof import('./locales/en/common.json');
  feeds: typeof import('./locales/en/feeds.json');
  messages: typeof import('./locales/en/messages.json');
  'playground-page': typeof import('./locales/en/playground-page.json');
  web: typeof import('./locales/en/web.json');
  render: typeof import('./locales/en/render.json');
}

/** i18next's plural suffixes. */
type WithoutPlural<K extends string> = K extends `${infer Base}_${'zero' | 'one' | 'two' | 'few' | 'many' | 'other'}` ? Base : K;

type Paths<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${WithoutPlural<K>}` : Paths<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** `player:sections.ranked`, `common:format.aside`. */
export type MessageKey = { [N in keyof Namespaces]: `${N}:${Paths<Namespaces[N]>}` }[keyof Namespaces];

/** `KeyIn<'messages'>` holds `notFound.player` for `messages:notFound.player`. */
export type KeyIn<N extends keyof Namespaces> = MessageKey extends infer K ? (K extends `${N}:${infer Rest}` ? Rest : never) : never;
