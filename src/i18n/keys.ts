/** Every message key as a type read from the English locale files (`namespace:path`, plurals without suffix): a missing key fails typecheck. */

/** `commands:<name>.*`: one file per command (src/i18n/locales/<lng>/commands/<name>.json), one key each. */
interface CommandTexts {
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

interface Namespaces {
  catalog: typeof import('./locales/en/catalog.json');
  charts: typeof import('./locales/en/charts.json');
  commands: CommandTexts;
  common: typeof import('./locales/en/common.json');
  compare: typeof import('./locales/en/compare.json');
  config: typeof import('./locales/en/config.json');
  feeds: typeof import('./locales/en/feeds.json');
  hero: typeof import('./locales/en/hero.json');
  ladder: typeof import('./locales/en/ladder.json');
  leaderboard: typeof import('./locales/en/leaderboard.json');
  link: typeof import('./locales/en/link.json');
  match: typeof import('./locales/en/match.json');
  messages: typeof import('./locales/en/messages.json');
  player: typeof import('./locales/en/player.json');
  'playground-page': typeof import('./locales/en/playground-page.json');
  web: typeof import('./locales/en/web.json');
  posts: typeof import('./locales/en/posts.json');
  render: typeof import('./locales/en/render.json');
  settings: typeof import('./locales/en/settings.json');
  status: typeof import('./locales/en/status.json');
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
