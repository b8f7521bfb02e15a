/**
 * Every user-facing sentence, in one module (STYLE.md), ready for localisation: each entry is a
 * function of its values so word order can change per language.
 */
export const t = {
  // Errors: specific and actionable.
  unknownHero: (query: string, suggestions: string[]) =>
    suggestions.length > 0 ? `No hero is called “${query}”. Did you mean ${suggestions.map((s) => `**${s}**`).join(', ')}?` : `No hero is called “${query}”. Start typing a name and pick one from the list.`,
  playerNotFound: (query: string) =>
    /^\d+$/.test(query) ? `No player has the UID ${query}. Check the number on the player’s profile, or use their name.` : `No player called “${query}”. Check the spelling, or use the UID.`,
  playerGone: (uid: string) => `The API has no profile for the player with UID ${uid} right now.`,
  matchGone: (uid: string) => `The API has no details for match ${uid}. It may be too old, or not stored yet.`,
  goneAfterPress: () => 'That is no longer available from the Marvel Rivals API. Run the command again for a fresh answer.',
  badSeason: (value: string) => `There is no season “${value}”. Seasons are 0, 1, 1.5, 2, 2.5 and so on.`,
  // Recent matches and updates.
  historyFromProfile: (count: number, noStoredHistory: boolean) =>
    noStoredHistory
      ? `The API has no stored match history for this player yet, so these are the latest ${count} matches from their profile. Press **Update** to ask the API to refresh it.`
      : `The API’s match history is not answering, so these are the latest ${count} matches from their profile.`,
  newerFromProfile: (count: number) => `The newest ${count === 1 ? 'match comes' : `${count} matches come`} from the profile: the API’s stored history has not caught up yet.`,
  noRecentMatches: () => 'No recent matches. Press **Update** to ask the API to refresh this player.',
  seasonTotalsUnavailable: (season: string) => `The API has no separate totals for ${season}, so these are the current season’s. Ranked seasons and recent matches are per season.`,
  noMatchesInSeason: (season: string) => `The API has no matches of ${season} for this player.`,
  updateRequested: () => 'Update requested. The API refreshes this player within a few minutes: run `/player` again then.',
  updateCooldown: (minutes: number) => `This player was updated recently. The API allows another update in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  compareSamePlayer: (name: string) => `Both options name ${name}. Pick two different players to compare.`,
  privateProfile: (name: string) => `${name}’s profile is private. They can make it public in the game’s settings.`,
  matchNotFound: (uid: string) => `No match with the id “${uid}” was found. Match ids look like 6713355_1740604074_322_11001_10.`,
  notFound: () => 'Nothing was found for that. Check what you typed and try again.',
  itemNotFound: (query: string) => `No item “${query}” was found. Browse them with /items and a type.`,
  achievementNotFound: (query: string) => `No achievement “${query}” was found. Browse them with /achievements.`,
  battlePassNotFound: (season: string) => `There is no battle pass for season ${season}. Leave the season out to see the current one.`,
  postNotFound: (id: string) => `No post with the id “${id}” was found. Pick one from /patch-notes.`,
  storeUnavailable: () => 'The bot’s settings store is not answering right now, so nothing was read or saved. Please try again in a minute.',
  apiDown: () => 'The Marvel Rivals API is not answering right now. Please try again in a minute.',
  apiTimeout: () => 'The Marvel Rivals API took too long to answer. Please try again in a minute.',
  rateLimited: (seconds: number) => `The bot is asking the Marvel Rivals API too often right now. Try again in ${seconds} s.`,
  apiUnauthorized: () => 'The bot’s API key was refused. A server admin should tell the bot’s owner.',
  badArgument: (argument: string, reason: string) => `The option “${argument}” ${reason}.`,
  unexpected: (reference: string) => `Something went wrong on our side. If it keeps happening, give the bot’s owner this reference: \`${reference}\`.`,
  expiredComponent: () => 'This button is from an older version of the bot or has expired. Run the command again.',
  nothingHere: () => 'There is nothing to show here yet.',
  restarting: () => 'The bot is restarting. Try again in a few seconds.',
  // Account links.
  notLinkedSelf: () => 'You have not linked a Rivals account yet. Link one with `/link player:<your name or UID>`, or give `/player` a name.',
  notLinkedOther: (userId: string) => `<@${userId}> has not linked a Rivals account. They can link one with \`/link\`.`,
  linked: (name: string, uid: string, isDefault: boolean) =>
    `Linked **${name}** (UID ${uid}).${isDefault ? ' `/player` with nothing after it now shows this account.' : ' Pick it as your default with `/link` and `default:True`.'}`,
  tooManyLinks: (max: number) => `You can link at most ${max} accounts. Remove one with \`/unlink\` first.`,
  unlinked: (names: string[]) => (names.length === 0 ? 'None of your linked accounts matched that.' : `Unlinked ${names.map((n) => `**${n}**`).join(', ')}.`),
  linkedList: (lines: string[]) => (lines.length === 0 ? 'You have no linked accounts.' : `Your linked accounts:\n${lines.join('\n')}`),
  // Server setup.
  configGuildOnly: () => 'This works only in a server.',
  configNeedsManageServer: () => 'You need the Manage Server permission to change the bot’s settings.',
  channelGone: (channelId: string) => `The channel ${channelId} no longer exists, or the bot cannot see it.`,
  channelMissing: (channelId: string, missing: string[]) => `The bot cannot post in <#${channelId}>: it lacks ${missing.join(', ')} there. Give the bot’s role those permissions in that channel, then try again.`,
  publishNeedsAnnouncement: (channelId: string) => `<#${channelId}> is not an announcement channel, so posts there cannot be published. Leave publish off or pick an announcement channel.`,
  feedSet: (feed: string, channelId: string, backfill: number) => `${feed} will be posted in <#${channelId}>${backfill > 0 ? `, starting with the latest ${backfill}` : ''}.`,
  feedFix: (channelId: string) => `Give the bot View Channel, Send Messages and Embed Links in <#${channelId}>, then set the channel again with /config feed`,
  /** `/config show`: a balance-post feed's hero filter. */
  heroFilter: (names: string[]) => `only posts changing ${names.join(', ')}`,
  heroFilterBalancesOnly: () => 'The hero filter works on balance posts only: set it with `/config feed type:Balance posts heroes:…`.',
  heroFilterTooMany: (max: number) => `A feed can follow at most ${max} heroes. Leave some out and try again.`,
  // /alerts.
  alertsUnavailable: () => 'Alerts are not available here: they need the bot running on Discord.',
  alertsNone: () => 'You get no alerts. Turn them on with `/alerts mains enabled:True` or `/alerts hero`.',
  alertsAllOff: () => 'Every alert is off.',
  alertsNeedLink: () => 'Your mains come from your linked account: link it first with `/link`, then turn the alerts on again.',
  alertsTooMany: (max: number) => `You already watch ${max} heroes. Stop one with \`/alerts off hero:…\` first.`,
  alertsMains: (names: string, when: string) => `🔔 Your mains: **${names}** (read ${when}).`,
  alertsMainsPending: () => '🔔 Your mains: not read yet. They are read from your linked account within the hour.',
  alertsWatching: (names: string) => `👀 Watching: **${names}**.`,
  alertsByDm: () => 'You are told by direct message: allow direct messages from this server’s members to get them.',
  alertsInChannel: (channelId: string) => `You are told in <#${channelId}>.`,
  alertsNoChannel: () => '⚠️ This server has no alerts channel yet: ask an admin to run `/config alerts`, or add `dm:True` to be told by direct message.',
  alertsChannelSet: (channelId: string) => `Hero alerts will be posted in <#${channelId}>, mentioning only the members they concern.`,
  alertsChannelOff: () => 'Hero alerts are off in this server; members who chose direct messages still get them.',
  /** `/config show`: a feed's quiet hours. */
  quietHours: (start: string, end: string, zone: string) => `quiet ${start}–${end} (${zone})`,
  /** `/config show`: a feed's digest. */
  digestSchedule: (every: 'daily' | 'weekly', at: string, zone: string) => `digest ${every === 'daily' ? 'every day' : 'every Monday'} at ${at} (${zone})`,
  badDigestTime: (typed: string) => `“${typed}” is not a time of day. Write the digest time in 24-hour time, e.g. \`18:00\`.`,
  digestAtWithoutDigest: () => 'A digest time needs a digest: add `digest:Daily` or `digest:Weekly`.',
  /** `/config show`: the feed posts each full text in a thread. */
  threadsOn: () => 'full text in a thread',
  threadsNeedText: () => 'Game versions have no full text to put in a thread. Set the thread option on patch notes, balance posts or dev diaries.',
  /** `/config status`: the feed is in its quiet hours now. */
  quietNow: (end: string, zone: string) => `🌙 Quiet hours now: new posts wait until ${end} (${zone}).`,
  badQuietHours: (typed: string) => `“${typed}” is not a time window. Write quiet hours as start-end in 24-hour time, e.g. \`22:00-08:00\`, or \`off\`.`,
  unknownTimeZone: (typed: string) => `“${typed}” is not a time zone. Pick one from the list as you type (a city works: Paris, New York), or use UTC.`,
  /** `/config status`: the last correction of a delivered post was edited into its message. */
  feedEdited: (postId: string, when: string) => `✏️ Last correction: post ${postId}, edited in place ${when}.`,
  /** `/config status`: the last correction could not be edited into its message (deleted, …); it is not retried. */
  feedEditFailed: (postId: string, when: string, reason: string) => `✏️ Last correction: post ${postId} could not be edited ${when} (${reason}); it is not tried again.`,
  testPostSent: (feed: string, channelId: string) => `A test post of ${feed.toLowerCase()} was sent to <#${channelId}>.`,
  testPostNotSet: (feed: string) => `${feed} have no channel yet. Set one with \`/config feed\`.`,
  testPostFailed: (channelId: string, reason: string) => `The test post to <#${channelId}> failed: ${reason}. Give the bot View Channel, Send Messages and Embed Links there, then try again.`,
  testPostOffline: () => 'Test posts need the bot to be connected to Discord.',
  resetConfirm: () => 'Forget every setting of this server: feed channels, ping roles, the leaderboard platform and private answers? Account links of members are kept.',
  resetDone: () => 'Every setting of this server is back to its default.',
  resetCancelled: () => 'Nothing was changed.',
  // Freshness.
  /** `age` from humanAge: "a few seconds", "1 minute", "3 hours", "2 days". */
  staleNote: (age: string) => `API unavailable: showing data from ${age} ago`,
  ageFewSeconds: () => 'a few seconds',
  /** "1 minute", "3 hours", "2 days": a whole number of a unit, in the locale's words. */
  age: (count: number, unit: 'minute' | 'hour' | 'day') => new Intl.NumberFormat('en', { style: 'unit', unit, unitDisplay: 'long' }).format(count),
  pageOf: (page: number, total: number) => `Page ${page} of ${total}`,
  // The hero meta (/meta).
  metaGathering: () => 'The hero meta is being gathered from the statistics of every hero. Try again in a minute.',
  metaUnavailable: () => 'The hero meta is not available on this bot right now.',
  metaTitle: (role: string | null) => (role ? `Hero meta · ${role}` : 'Hero meta'),
  metaSort: (sort: 'win-rate' | 'pick-share' | 'kda') => ({ 'win-rate': 'win rate', 'pick-share': 'pick share', kda: 'KDA' })[sort],
  metaSortedBy: (sortName: string) => `Sorted by ${sortName}. Pick share: a hero’s matches as a share of all heroes’ matches.`,
  /** `name` is escaped markdown; the numbers are formatted, an em dash when unknown. */
  metaLine: (name: string, winRate: string, pickShare: string, kda: string) => `**${name}** · ${winRate} win · ${pickShare} picks · KDA ${kda}`,
  metaRoleHeading: (role: string | null, continued: boolean) => `__${role ?? 'Other'}__${continued ? ' (continued)' : ''}`,
  metaNoHeroes: (role: string | null) => (role ? `No ${role} has statistics yet.` : 'No hero has statistics yet.'),
  /** `age` from humanAge: "12 minutes". */
  metaFooter: (age: string, answered: number, total: number, stale: boolean) =>
    [`Gathered ${age} ago`, answered < total ? `${answered} of ${total} heroes` : '', stale ? 'API unavailable: some statistics are older' : ''].filter(Boolean).join(' · '),
  metaChartTitle: (role: string | null) => (role ? `${role}s · win rate against pick share` : 'Win rate against pick share'),
  metaChartAlt: (count: number, role: string | null, best: string, most: string) =>
    `Scatter chart of win rate against pick share of ${count} ${role ? `${role}s` : 'heroes'}, coloured by role, with a line at 50 % win rate. Highest win rate: ${best}. Most picked: ${most}.`,
  // A hero's balance history (/hero, section "Balance history").
  balanceUnavailable: () => 'The balance history is not available on this bot right now.',
  /** `hero` is escaped markdown. */
  balanceBuilding: (hero: string) => `The balance history is still being built from every balance post and patch note, and nothing about ${hero} has been found so far. Try again in a few minutes.`,
  /** `hero` is escaped markdown. */
  balanceNone: (hero: string) => `No balance post or patch note has changed ${hero} so far.`,
  balanceVerdict: (verdict: 'buff' | 'nerf' | 'adjusted' | 'fixed') => ({ buff: 'Buff', nerf: 'Nerf', adjusted: 'Adjusted', fixed: 'Fixed' })[verdict],
  balanceKind: (kind: 'balance' | 'patch-note') => (kind === 'balance' ? 'Balance post' : 'Patch notes'),
  balanceNoDate: () => 'undated',
  balanceMoreLines: (count: number) => `…and ${count} more line${count === 1 ? '' : 's'}`,
  balanceFooter: (total: number) => `${total} post${total === 1 ? '' : 's'} · ▲ buff ▼ nerf ◆ adjusted ✔ fixed, read from each post’s lines about this hero`,
  balanceRead: (n: number) => `Read ${n}`,
  // The playground (src/playground): what its command bar says before anything reaches the bot.
  playgroundUnknownCommand: (name: string) => `There is no command /${name}. Type / to see them all.`,
  playgroundNoPermission: (name: string) => `Only members with Manage Server can use /${name}. Switch to an admin member to try it.`,
  playgroundNeedsSubcommand: (name: string, subcommands: string[]) => `/${name} needs one of: ${subcommands.join(', ')}.`,
  playgroundUnknownSubcommand: (name: string, sub: string) => `/${name} has no subcommand “${sub}”.`,
  playgroundUnknownOption: (name: string, option: string) => `/${name} has no option “${option}”.`,
  playgroundMissingOption: (option: string) => `The option “${option}” is required.`,
  playgroundBadChoice: (option: string, choices: string[]) => `Pick one of ${choices.join(', ')} for “${option}”.`,
  playgroundBadNumber: (option: string, integer: boolean) => `“${option}” must be ${integer ? 'a whole number' : 'a number'}.`,
  playgroundOutOfRange: (option: string, min?: number, max?: number) =>
    `“${option}” must be ${min !== undefined && max !== undefined ? `between ${min} and ${max}` : min !== undefined ? `at least ${min}` : `at most ${max}`}.`,
  playgroundBadLength: (option: string, min?: number, max?: number) => `“${option}” must be ${min ?? 0} to ${max ?? 6000} characters long.`,
  playgroundBadBoolean: (option: string) => `“${option}” must be True or False.`,
  playgroundUnknownMember: (option: string, value: string) => `“${value}” is not a member of this server (for “${option}”).`,
  playgroundUnknownChannel: (option: string, value: string) => `“${value}” is not a channel this option takes (for “${option}”).`,
  playgroundUnknownRole: (option: string, value: string) => `“${value}” is not a role of this server (for “${option}”).`,
  playgroundUnknownMessage: () => 'That message is gone. Run the command again.',
  playgroundEphemeralOwner: () => 'Only the member who got this private message can use its buttons.',
  // The playground page (src/playground/web), bundled with this module.
  playgroundPlaceholder: (channel: string) => `Message #${channel}: type / for commands`,
  playgroundPickerCommands: () => 'Commands',
  playgroundPickerOptions: (command: string) => `Options of ${command}`,
  playgroundPickerSend: () => 'Press Enter to send',
  playgroundPickerHint: () => '↑↓ to move · Tab to pick · Enter to send · Esc to close',
  playgroundSlashOnly: () => 'The bot answers slash commands: type / to pick one.',
  playgroundRefused: (status: number) => `The playground refused it (HTTP ${status}).`,
  playgroundWelcome: (channel: string) => `Welcome to #${channel}!`,
  playgroundPostRefused: (status: number) => `The API replica refused the post (HTTP ${status}).`,
  playgroundPostAdded: () => 'Post added to the API replica. The bot has checked its feeds.',
  playgroundStartFailed: (reason: string) => `The playground could not start: ${reason}. Is \`npm start\` still running?`,
};
