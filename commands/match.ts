/**
 * `/match match:<match uid>`: a summary, then one embed per team (src/game/scoreboard.ts). Data: api-spec.md endpoint 20 (a match
 * never changes: cached forever), the hero and map lists, and what the history row it was opened from knew.
 */
import type { CommandContext, CommandModule, ComponentInput } from '../src/discord/command.js';
import { slashCommand } from '../src/discord/command.js';
import { isMatchUid } from '../src/game/match-uid.js';
import { describe } from '../src/i18n/commands.js';
import { matchChoices } from '../src/catalog/choices.js';
import { heldMatch } from '../src/catalog/held-match.js';
import { listedRow, matchView, noScoreboard, rowView } from '../src/catalog/match-answer.js';
import { decodeMatchOrigin, listBackId, listPlace, type ListPlace } from '../src/render/match-origin.js';
import { backRow } from '../src/render/paginate.js';
import { playerAuthor } from '../src/render/scoreboard.js';
import type { View } from '../src/render/view.js';

/** The part of a command's context /match uses (src/discord/command.ts). */
type Ctx = Pick<CommandContext, 'api' | 'heroes' | 'links' | 'logger' | 'maps' | 'matches' | 'now' | 'recent' | 'tracking'>;

const definition = slashCommand('match')
  .addStringOption((o) =>
    o.setName('match').setDescription(describe('match.options.match')).setRequired(true).setMinLength(3).setMaxLength(100).setAutocomplete(true),
  )
  .toJSON();

/**
 * A match opened from a player's recent matches (`mt.l`, or `mt.o` back from one of its players): its scoreboard with a
 * Back button to that page; when the API has no scoreboard for it or cannot give one now, what its history row knows,
 * with the same Back button. A match opened from elsewhere (`place` null) fails as {@link matchView} does.
 * @throws what {@link matchView} throws, but for the scoreboard's absence when `place` is known.
 */
async function matchFromList(value: string, place: ListPlace | null, ctx: Ctx, seenBy: string): Promise<View> {
  try {
    return await matchView(value, ctx, true, { place: place ?? undefined, seenBy });
  } catch (err) {
    const reason = noScoreboard(err);
    if (!reason || !place) throw err;
    const origin = decodeMatchOrigin(value);
    ctx.logger.info({ err, matchUid: origin.matchUid }, 'no scoreboard for a match opened from a list: showing its history row');
    const listed = await listedRow(origin.matchUid, place, ctx);
    const view = await rowView(listed ? { ...listed, author: playerAuthor(listed.profile) } : { origin }, reason, ctx);
    const back = listBackId(place);
    return back ? { ...view, components: [backRow(back)] } : view;
  }
}

/**
 * `/match match:<uid>`: its scoreboard ({@link matchView}). A uid as the API writes them that the API keeps no scoreboard of
 * (or cannot give now) is answered with what the bot already holds of it, a history row of the match with whose it is
 * (src/catalog/held-match.ts), else with what its uid says, and why there is no scoreboard: never as an id typed wrong.
 * @throws what {@link matchView} throws for text that is no match uid, and for a scoreboard the API cannot give now with
 *   nothing held of the match.
 */
async function typedMatch(uid: string, ctx: Ctx, userId: string): Promise<View> {
  try {
    return await matchView(uid, ctx, false, { seenBy: userId });
  } catch (err) {
    const reason = noScoreboard(err);
    if (!reason || !isMatchUid(uid, ctx.now())) throw err;
    const held = await heldMatch(uid, { userId }, ctx);
    ctx.logger.info({ err, matchUid: uid, held: held.listed !== null }, 'no scoreboard for a match typed by id: showing what is held of it');
    if (held.listed) return rowView({ ...held.listed, author: playerAuthor(held.listed.profile) }, reason, ctx);
    if (reason === 'unavailable') throw err;
    return rowView({ origin: { matchUid: uid, mapId: held.mapId, modeId: null, duration: null, time: null }, typed: true }, reason, ctx);
  }
}

/** A match picked in a player's recent matches: the value is the match as its row knew it, the arguments the list's place. */
const matchFromRecentMatches = async (input: ComponentInput, ctx: Ctx): Promise<View> =>
  matchFromList(input.values[0] ?? '', listPlace(input.args), ctx, input.user.userId);

export const match: CommandModule = {
  draws: true,
  apiOptions: { match_uid: 'match' },
  definition,
  async execute(input, ctx: Ctx) {
    return typedMatch(String(input.options.match ?? '').trim(), ctx, input.user.userId);
  },
  /** `match`: the member's recent matches (src/catalog/choices.ts). */
  async autocomplete(input, ctx: Ctx) {
    return input.focused.name === 'match' ? matchChoices(input.focused.value, input.user.userId, ctx) : [];
  },
  components: {
    /**
     * Recent match select of /player: `mt.l:<uid>:<season>:<page>:<filter>` (older messages: `pl.m:…`, then `pl.m:<uid>`), the match
     * and what its history row knew as the value. The match, or without a scoreboard its history row, gets a Back button
     * to the same page.
     */
    'mt.l': matchFromRecentMatches,
    /** The same, from a message sent before the route named the module that handles it. */
    'pl.m': matchFromRecentMatches,
    /**
     * Back to a match from a player opened from its scoreboard: `mt.o:<match uid or origin>[:<list place>]`, reopened as it
     * was, with its Back button to the recent matches it was opened from.
     */
    'mt.o': async (input, ctx: Ctx) => matchFromList(input.args[0] ?? '', listPlace(input.args.slice(1)), ctx, input.user.userId),
    /** A match card's "Full scoreboard": `mt.t:<match uid or origin>`, the team embeds as a private reply to whoever pressed. */
    'mt.t': async (input, ctx: Ctx) => matchView(input.args[0] ?? '', ctx, true, { details: true }),
  },
};
