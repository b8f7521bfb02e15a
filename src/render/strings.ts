/** Every member-facing sentence, by key, in the current locale. Values are not escaped: callers escape member input (escapeText). */
import { currentLocale, tr, type MessageValues } from '../i18n/index.js';
import type { KeyIn, MessageKey } from '../i18n/keys.js';
import { integer } from '../i18n/format.js';
import type { ArgumentProblem } from '../core/api-errors.js';
import type { DeliveryProblem } from '../core/discord-errors.js';

const m = (key: KeyIn<'messages'>, values?: MessageValues): string => tr(`messages:${key}` as MessageKey, values);
/** `playground-page:<key>` in the current locale (the page itself reads these through src/playground/web/messages.ts). */
const page = (key: KeyIn<'playground-page'>, values?: MessageValues): string => tr(`playground-page:${key}` as MessageKey, values);

/** Items as a prose list in the current locale: "A, B, or C" (`disjunction`), "A and B" (`conjunction`). */
const prose = (items: string[], type: 'conjunction' | 'disjunction'): string => new Intl.ListFormat(currentLocale(), { type }).format(items);
/** Items joined with the current locale's list separator (", ", "、"): an enumeration, not a sentence. */
const enumeration = (items: string[]): string => items.join(m('list.separator'));
/** A number in the current locale, with the decimals it has (an option's bound may be 0.5). */
const number = (n: number): string => (Number.isInteger(n) ? integer(n) : new Intl.NumberFormat(currentLocale(), { maximumFractionDigits: 6 }).format(n));
const bold = (s: string) => `**${s}**`;

/** The message key of each permission the bot may lack in a channel, by Discord's English name (src/discord/channel-access.ts). */
const PERMISSION_KEYS: Record<string, 'createPublicThreads' | 'embedLinks' | 'sendMessages' | 'sendMessagesInThreads' | 'viewChannel'> = {
  'View Channel': 'viewChannel',
  'Send Messages': 'sendMessages',
  'Embed Links': 'embedLinks',
  'Create Public Threads': 'createPublicThreads',
  'Send Messages in Threads': 'sendMessagesInThreads',
};

export const t = {
  unknownHero: (query: string, suggestions: string[]) =>
    suggestions.length > 0
      ? m('errors.unknownHero', { query, suggestions: prose(suggestions.map(bold), 'disjunction') })
      : m('errors.unknownHeroNoSuggestions', { query }),
  playerNotFound: (query: string) => (/^\d+$/.test(query) ? m('errors.playerNotFoundUid', { uid: query }) : m('errors.playerNotFound', { query })),
  playerNotFoundSuggest: (query: string, suggestions: string[]) =>
    m('errors.playerNotFoundSuggest', { query, suggestions: prose(suggestions.map(bold), 'disjunction') }),
  playerGone: (uid: string) => m('errors.playerGone', { uid }),
  matchGone: (uid: string) => m('errors.matchGone', { uid }),
  goneAfterPress: () => m('errors.goneAfterPress'),
  badSeason: (value: string) => m('errors.badSeason', { value }),
  badSeasonListed: (value: string, latest: string) => m('errors.badSeasonListed', { value, latest }),
  historyFromProfile: (count: number, noStoredHistory: boolean) =>
    m(noStoredHistory ? 'matches.historyFromProfileNoStored' : 'matches.historyFromProfileDown', { count, matches: integer(count) }),
  newerFromProfile: (count: number) => m('matches.newerFromProfile', { count, matches: integer(count) }),
  noRecentMatches: () => m('matches.noRecentMatches'),
  seasonTotalsUnavailable: (season: string) => m('matches.seasonTotalsUnavailable', { season }),
  noMatchesInSeason: (season: string) => m('matches.noMatchesInSeason', { season }),
  updateRequested: () => m('matches.updateRequested'),
  updateNotPossible: () => m('matches.updateNotPossible'),
  updateCooldown: (minutes: number) => m('matches.updateCooldown', { count: minutes, minutes: integer(minutes) }),
  compareSamePlayer: (name: string) => m('errors.compareSamePlayer', { name }),
  privateProfile: (name: string) => m('errors.privateProfile', { name }),
  matchNotFound: (uid: string) => m('errors.matchNotFound', { uid }),
  notFoundQuery: (query: string) => m('errors.notFoundQuery', { query }),
  nothingFromApi: () => m('errors.nothingFromApi'),
  itemNotFound: (query: string) => m('errors.itemNotFound', { query }),
  achievementNotFound: (query: string) => m('errors.achievementNotFound', { query }),
  battlePassNotFound: (season: string) => m('errors.battlePassNotFound', { season }),
  postNotFound: (id: string) => m('errors.postNotFound', { id }),
  storeUnavailable: () => m('errors.storeUnavailable'),
  apiDown: () => m('errors.apiDown'),
  apiUnknownForm: () => m('errors.apiUnknownForm'),
  apiTimeout: () => m('errors.apiTimeout'),
  rateLimited: (seconds: number) => m('errors.rateLimited', { seconds: integer(seconds) }),
  apiUnauthorized: () => m('errors.apiUnauthorized'),
  /** An option the API refused (`ApiArgumentError`): `option` as the member's client names it. */
  badArgument: (option: string, problem: ArgumentProblem, values: { max?: number; choices?: readonly string[] } = {}) =>
    m('errors.badArgument', {
      argument: option,
      reason: m(`errors.argumentProblem.${problem}`, { max: values.max === undefined ? '' : integer(values.max), choices: (values.choices ?? []).join(', ') }),
    }),
  unexpected: (reference: string) => m('errors.unexpected', { reference }),
  expiredComponent: () => m('errors.expiredComponent'),
  nothingHere: () => m('errors.nothingHere'),
  restarting: () => m('errors.restarting'),
  notLinkedSelf: () => m('links.notLinkedSelf'),
  notLinkedSelfCompare: () => m('links.notLinkedSelfCompare', { option: tr('commands:compare.options.other.name') }),
  notLinkedSelfLast: () => m('links.notLinkedSelfLast', { option: tr('commands:last.options.player.name') }),
  notLinkedSelfScout: () => m('links.notLinkedSelfScout', { option: tr('commands:scout.options.match.name') }),
  notLinkedSelfSession: () => m('links.notLinkedSelfSession', { option: tr('commands:session.options.player.name') }),
  notLinkedOther: (userId: string) => m('links.notLinkedOther', { userId }),
  linked: (name: string, uid: string, isDefault: boolean) => m(isDefault ? 'links.linkedDefault' : 'links.linked', { name, uid }),
  tooManyLinks: (max: number) => m('links.tooMany', { count: max, max: integer(max) }),
  unlinked: (names: string[]) => (names.length === 0 ? m('links.unlinkedNone') : m('links.unlinked', { names: prose(names.map(bold), 'conjunction') })),
  linkedList: (lines: string[]) => (lines.length === 0 ? m('links.listNone') : m('links.list', { lines: lines.join('\n') })),
  configGuildOnly: () => tr('config:guildOnly'),
  configNeedsManageServer: () => tr('config:needsManageServer'),
  channelGone: (channelId: string) => tr('config:channelGone', { channelId }),
  /** `missing`: Discord's English names of the permissions (View Channel…), written as Discord's client names them in the reader's language. */
  channelMissing: (channelId: string, missing: string[]) =>
    tr('config:channelMissing', {
      channelId,
      permissions: enumeration(missing.map((name) => (PERMISSION_KEYS[name] ? tr(`config:permissions.${PERMISSION_KEYS[name]}`) : name))),
    }),
  publishNeedsAnnouncement: (channelId: string) => tr('config:publishNeedsAnnouncement', { channelId }),
  feedSet: (feed: string, channelId: string, backfill: number) =>
    backfill > 0 ? tr('config:feedSetBackfill', { feed, channelId, count: backfill, backfill: integer(backfill) }) : tr('config:feedSet', { feed, channelId }),
  feedFix: (channelId: string) => tr('config:feedFix', { channelId }),
  heroFilter: (names: string[]) => tr('config:heroFilter', { heroes: enumeration(names) }),
  heroFilterBalancesOnly: () => tr('config:heroFilterBalancesOnly'),
  heroFilterTooMany: (max: number) => tr('config:heroFilterTooMany', { count: max, max: integer(max) }),
  alertsUnavailable: () => tr('alerts:unavailable'),
  alertsNone: () => tr('alerts:none'),
  alertsAllOff: () => tr('alerts:allOff'),
  alertsNeedLink: () => tr('alerts:needLink'),
  alertsTooMany: (max: number) => tr('alerts:tooMany', { count: max, max: integer(max) }),
  alertsMains: (names: string, when: string) => tr('alerts:mains', { names, when }),
  alertsMainsPending: () => tr('alerts:mainsPending'),
  alertsWatching: (names: string) => tr('alerts:watching', { names }),
  alertsByDm: () => tr('alerts:byDm'),
  alertsInChannel: (channelId: string) => tr('alerts:inChannel', { channelId }),
  alertsNoChannel: () => tr('alerts:noChannel'),
  alertsChannelSet: (channelId: string) => tr('alerts:channelSet', { channelId }),
  alertsChannelOff: () => tr('alerts:channelOff'),
  quietHours: (start: string, end: string, zone: string) => tr('config:quietHours', { start, end, zone }),
  digestSchedule: (every: 'daily' | 'weekly', at: string, zone: string) => tr(every === 'daily' ? 'config:digestDaily' : 'config:digestWeekly', { at, zone }),
  badDigestTime: (typed: string) => tr('config:badDigestTime', { typed }),
  digestAtWithoutDigest: () => tr('config:digestAtWithoutDigest'),
  /** The feed posts each full text in a thread. */
  threadsOn: () => tr('config:threadsOn'),
  threadsNeedText: () => tr('config:threadsNeedText'),
  quietNow: (end: string, zone: string) => tr('config:quietNow', { end, zone }),
  badQuietHours: (typed: string) => tr('config:badQuietHours', { typed, off: tr('config:quietOff') }),
  unknownTimeZone: (typed: string) => tr('config:unknownTimeZone', { typed }),
  feedEdited: (post: string, when: string) => tr('config:feedEdited', { post, when }),
  /** A correction that could not be edited into its message; it is not retried. */
  feedEditFailed: (post: string, when: string, reason: string) => tr('config:feedEditFailed', { post, when, reason }),
  /** Why a post could not be delivered or edited, in the reader's language. */
  deliveryProblem: (problem: DeliveryProblem) => {
    if (problem.kind === 'other') return problem.detail;
    if (problem.kind === 'gaveUp') return tr('config:deliveryProblem.gaveUp', { attempts: integer(problem.attempts), detail: problem.detail });
    return tr(`config:deliveryProblem.${problem.key}`);
  },
  testPostSent: (feed: string, channelId: string) => tr('config:testPostSent', { feed: feed.toLowerCase(), channelId }),
  testPostNotSet: (feed: string) => tr('config:testPostNotSet', { feed }),
  testPostFailed: (channelId: string, reason: string) => tr('config:testPostFailed', { channelId, reason }),
  testPostOffline: () => tr('config:testPostOffline'),
  resetConfirm: () => tr('config:resetConfirm'),
  resetDone: () => tr('config:resetDone'),
  resetCancelled: () => tr('config:resetCancelled'),
  /** `age` from humanAge ("3 hours"). */
  staleNote: (age: string) => m('freshness.staleNote', { age }),
  ageFewSeconds: () => m('freshness.ageFewSeconds'),
  /** A whole number of a unit in the locale's words ("3 hours"). */
  age: (count: number, unit: 'minute' | 'hour' | 'day') => new Intl.NumberFormat(currentLocale(), { style: 'unit', unit, unitDisplay: 'long' }).format(count),
  pageOf: (page: number, total: number) => m('freshness.pageOf', { page: integer(page), total: integer(total) }),
  metaGathering: () => tr('meta:gathering'),
  metaGatheringEta: (done: number, total: number, etaMs: number) => {
    const seconds = Math.max(1, Math.ceil(etaMs / 1000));
    const [count, unit] = seconds < 90 ? [seconds, 'second'] : [Math.ceil(seconds / 60), 'minute'];
    const time = new Intl.NumberFormat(currentLocale(), { style: 'unit', unit, unitDisplay: 'long' }).format(count);
    return tr('meta:gatheringEta', { count: total, done: integer(done), total: integer(total), time });
  },
  metaUnavailable: () => tr('meta:unavailable'),
  metaTitle: (role: string | null) => (role ? tr('meta:titleRole', { role }) : tr('meta:title')),
  metaSort: (sort: 'win-rate' | 'pick-share' | 'kda') => tr(`meta:sort.${({ 'win-rate': 'winRate', 'pick-share': 'pickShare', kda: 'kda' } as const)[sort]}`),
  metaSortedBy: (sortName: string) => tr('meta:sortedBy', { sort: sortName }),
  /** `name` is escaped markdown; the numbers are formatted, an em dash when unknown. */
  metaLine: (name: string, winRate: string, pickShare: string, kda: string) => tr('meta:line', { name, winRate, pickShare, kda }),
  metaRoleHeading: (role: string | null, continued: boolean) =>
    tr(continued ? 'meta:roleHeadingContinued' : 'meta:roleHeading', { role: role ?? tr('meta:roleOther') }),
  metaNoHeroes: (role: string | null) => (role ? tr('meta:noHeroesRole', { role }) : tr('meta:noHeroes')),
  metaFooter: (age: string, answered: number, total: number, stale: boolean) =>
    [
      tr('meta:footerGathered', { age }),
      answered < total ? tr('meta:footerPartial', { count: total, answered: integer(answered), total: integer(total) }) : '',
      stale ? tr('meta:footerStale') : '',
    ]
      .filter(Boolean)
      .join(' · '),
  serverMetaTitle: (role: string | null, source: 'played' | 'met' | 'bot' = 'played') => {
    const key = ({ played: 'title', met: 'titleMet', bot: 'titleBot' } as const)[source];
    return role ? tr(`meta:server.${key}Role`, { role }) : tr(`meta:server.${key}`);
  },
  serverMetaBasis: (period: 'season' | '30d', matches: number, season: string | null, source: 'played' | 'met' | 'bot' = 'played') => {
    if (source === 'bot') return tr('meta:server.basisBot', { count: matches, matches: integer(matches) });
    const met = source === 'met' ? 'Met' : '';
    return period === 'season'
      ? tr(`meta:server.basis${met}Season`, { count: matches, matches: integer(matches), season: season ?? '' })
      : tr(`meta:server.basis${met}Recent`, { count: matches, matches: integer(matches) });
  },
  serverMetaNoneOf: (source: 'met' | 'bot') => tr(source === 'met' ? 'meta:server.noneMet' : 'meta:server.noneBot'),
  serverMetaFooterBot: () => tr('meta:server.footerBot'),
  serverMetaBracket: (tier: string) => tr('meta:server.bracket', { tier }),
  serverMetaHow: (min: number) => tr('meta:server.how', { min: integer(min) }),
  serverMetaLine: (name: string, winRate: string, low: string, high: string, pickShare: string, kda: string, matches: number) =>
    tr('meta:server.line', { count: matches, name, winRate, low, high, pickShare, kda, matches: integer(matches) }),
  /** `record` W–L ("3–2"). */
  serverMetaFew: (name: string, record: string, matches: number) => tr('meta:server.few', { count: matches, name, record, matches: integer(matches) }),
  serverMetaNone: (period: 'season' | '30d', tier: string | null) =>
    tr(period === 'season' ? 'meta:server.noneSeason' : 'meta:server.noneRecent', { bracket: tier ? tr('meta:server.inBracket', { tier }) : '' }),
  serverMetaFooter: () => tr('meta:server.footer'),
  serverMetaChartTitle: () => tr('meta:server.chartTitle'),
  metaChartTitle: (role: string | null) => (role ? tr('meta:chartTitleRole', { role }) : tr('meta:chartTitle')),
  metaChartAlt: (count: number, role: string | null, best: string, most: string) =>
    tr(role ? 'meta:chartAltRole' : 'meta:chartAlt', { count, heroes: integer(count), ...(role ? { role } : {}), best, most }),
  balanceUnavailable: () => tr('hero:balance.unavailable'),
  /** `hero` is escaped markdown. */
  balanceBuilding: (hero: string) => tr('hero:balance.building', { hero }),
  /** `hero` is escaped markdown. */
  balanceNone: (hero: string) => tr('hero:balance.none', { hero }),
  balanceVerdict: (verdict: 'buff' | 'nerf' | 'adjusted' | 'fixed') => tr(`hero:balance.verdict.${verdict}`),
  balanceKind: (kind: 'balance' | 'patch-note') => tr(kind === 'balance' ? 'hero:balance.kind.balance' : 'hero:balance.kind.patchNote'),
  balanceNoDate: () => tr('hero:balance.noDate'),
  balanceMoreLines: (count: number) => tr('hero:balance.moreLines', { count, lines: integer(count) }),
  balanceFooter: (total: number) => tr('hero:balance.footer', { count: total, posts: integer(total) }),
  balanceRead: (n: number) => tr('hero:balance.read', { n: integer(n) }),
  // The playground (src/playground): what its command bar says before anything reaches the bot.
  playgroundUnknownCommand: (name: string) => page('unknownCommand', { name }),
  playgroundNoPermission: (name: string) => m('playground.noPermission', { name }),
  playgroundNeedsSubcommand: (name: string, subcommands: string[]) => m('playground.needsSubcommand', { name, subcommands: enumeration(subcommands) }),
  playgroundUnknownSubcommand: (name: string, sub: string) => m('playground.unknownSubcommand', { name, sub }),
  playgroundUnknownOption: (name: string, option: string) => m('playground.unknownOption', { name, option }),
  playgroundMissingOption: (option: string) => m('playground.missingOption', { option }),
  playgroundBadChoice: (option: string, choices: string[]) => m('playground.badChoice', { option, choices: enumeration(choices) }),
  playgroundBadNumber: (option: string, integer: boolean) => m(integer ? 'playground.badInteger' : 'playground.badNumber', { option }),
  playgroundOutOfRange: (option: string, min?: number, max?: number) =>
    min !== undefined && max !== undefined
      ? m('playground.outOfRange', { option, min: number(min), max: number(max) })
      : min !== undefined
        ? m('playground.belowMin', { option, min: number(min) })
        : m('playground.aboveMax', { option, max: max === undefined ? undefined : number(max) }),
  playgroundBadLength: (option: string, min?: number, max?: number) => m('playground.badLength', { option, min: number(min ?? 0), max: number(max ?? 6000) }),
  playgroundBadBoolean: (option: string) => m('playground.badBoolean', { option }),
  playgroundUnknownMember: (option: string, value: string) => m('playground.unknownMember', { option, value }),
  playgroundUnknownChannel: (option: string, value: string) => m('playground.unknownChannel', { option, value }),
  playgroundUnknownRole: (option: string, value: string) => m('playground.unknownRole', { option, value }),
  playgroundUnknownMessage: () => m('playground.unknownMessage'),
  playgroundEphemeralOwner: () => m('playground.ephemeralOwner'),
  // The playground page (src/playground/web reads the same keys through its own messages module).
  playgroundPlaceholder: (channel: string) => page('placeholder', { channel }),
  playgroundPlaceholderDm: (name: string) => page('placeholderDm', { name }),
  playgroundPickerCommands: () => page('pickerCommands'),
  playgroundPickerOptions: (command: string) => page('pickerOptions', { command }),
  playgroundPickerSend: () => page('pickerSend'),
  playgroundPickerHint: () => page('pickerHint'),
  playgroundSlashOnly: () => page('slashOnly'),
  playgroundRefused: (status: number) => page('refused', { status }),
  playgroundWelcome: (channel: string) => page('welcome', { channel }),
  playgroundPostRefused: (status: number) => page('postRefused', { status }),
  playgroundPostAdded: () => page('postAdded'),
  playgroundStartFailed: (reason: string) => page('startFailed', { reason }),
};
