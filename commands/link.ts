/** `/link` and `/unlink`: a member's game accounts, so `/player` alone shows their default. Data: api-spec.md endpoint 17. */
import { ButtonStyle } from 'discord-api-types/v10';
import { slashCommand, type CommandContext, type CommandModule } from '../src/discord/command.js';
import { VERIFICATION_CHECK_MS, VERIFICATION_TTL_MS } from '../src/game/verification.js';
import { discordTime } from '../src/i18n/format.js';
import { encodeCustomId } from '../src/render/custom-id.js';
import { checkOwnership } from '../src/jobs/link-verifier.js';
import { describe } from '../src/i18n/commands.js';
import { tr, typedWord } from '../src/i18n/index.js';
import { t } from '../src/render/strings.js';
import { escapeText, LIMITS, truncate } from '../src/render/limits.js';
import { buttonRow } from '../src/render/paginate.js';
import type { View } from '../src/render/view.js';
import { playerChoices, playerSuggestions, searchPlayer } from '../src/catalog/players.js';
import { ApiError } from '../src/core/api-errors.js';
import { NotFoundError } from '../src/core/errors.js';

/** The part of a command's context /link uses (src/discord/command.ts). */
type Ctx = Pick<CommandContext, 'api' | 'links' | 'logger' | 'now' | 'recent' | 'tracking' | 'verifications'>;

const COLOUR = 0x22c55e;
const privately = (description: string): View => ({ ephemeral: true, embeds: [{ color: COLOUR, description }] });

/** The member's link to `uid`, or null when it is not theirs (any more). */
async function linkOf(userId: string, uid: string, ctx: Ctx) {
  return (await ctx.links.get(userId)).accounts.find((a) => a.uid === uid) ?? null;
}

export const link: CommandModule = {
  apiOptions: { player: 'player', playerUpdate: 'player' },
  definition: slashCommand('link')
    // The member's own accounts: wherever they use the bot, through either install.
    .addStringOption((o) => o.setName('player').setDescription(describe('link.options.player')).setRequired(true).setMaxLength(100))
    .addBooleanOption((o) => o.setName('default').setDescription(describe('link.options.default')))
    .toJSON(),
  async execute(input, ctx: Ctx) {
    const typed = String(input.options.player ?? '').trim();
    // A name goes through the API's search first: the link is by UID, which outlives a rename. A search that answers
    // another name leaves the profile read by name to decide, and is offered when that finds nobody; so is a search
    // that cannot answer.
    const found = await searchPlayer(typed, ctx);
    const resolved = found && found.name.toLowerCase() === typed.toLowerCase() ? found.uid : null;
    // A private profile can still be linked: its owner may open it later.
    const profile = await ctx.api
      .player(resolved ?? typed, {}, { fresh: true })
      .then((f) => f.data)
      .catch(async (err: unknown) => {
        if (!resolved && err instanceof ApiError && err.kind === 'not_found' && !/^\d+$/.test(typed)) {
          const known = await playerSuggestions(input.user.userId, typed, ctx);
          const offered = found ? [found.name, ...known.filter((n) => n.toLowerCase() !== found.name.toLowerCase())] : known;
          throw new NotFoundError('player', typed, false, offered.slice(0, 3));
        }
        throw err;
      });
    const links = await ctx.links.link(input.user.userId, { uid: profile.uid, name: profile.name }, input.options.default === true, ctx.now());
    // The link stands without it: the tracker follows the links again within minutes.
    await ctx.tracking
      ?.follow(profile.uid, ctx.now(), input.user.userId)
      .catch((err: unknown) => ctx.logger.warn({ err }, 'could not start tracking a linked account'));
    const lines = links.accounts.map((a) => `${a.uid === links.defaultUid ? '★' : '•'} ${escapeText(a.name, 60)} (UID ${a.uid})${a.verifiedAt ? ' ✓' : ''}`);
    const tracking = ctx.tracking && !profile.is_private ? `\n${tr('messages:links.tracking')}` : '';
    const view = privately(`${t.linked(escapeText(profile.name, 60), profile.uid, links.defaultUid === profile.uid)}${tracking}\n\n${t.linkedList(lines)}`);
    const verified = links.accounts.find((a) => a.uid === profile.uid)?.verifiedAt;
    return ctx.verifications && !verified
      ? { ...view, components: [buttonRow(tr('link:verify.button'), encodeCustomId('lk.v', profile.uid), ButtonStyle.Primary)] }
      : view;
  },
  components: {
    /** "Prove this account is yours": `lk.v:<uid>`, the presser's own link. */
    'lk.v': async (input, ctx: Ctx) => startProof(input.user.userId, input.args[0] ?? '', ctx),
    /** "Check now": `lk.c:<uid>`. */
    'lk.c': async (input, ctx: Ctx) => checkProof(input.user.userId, input.args[0] ?? '', ctx),
  },
};

/** Starts a proof that the presser owns linked account `uid`: the icon it has now, which they are asked to change. */
async function startProof(userId: string, uid: string, ctx: Ctx): Promise<View> {
  if (!ctx.verifications) throw new Error('proofs of ownership are not wired in this context');
  const link = await linkOf(userId, uid, ctx);
  if (!link) return privately(tr('link:verify.notLinked'));
  const profile = (await ctx.api.player(uid, {}, { fresh: true })).data;
  await ctx.verifications.start(userId, uid, profile.icon_id, ctx.now(), VERIFICATION_TTL_MS, VERIFICATION_CHECK_MS);
  return {
    ephemeral: true,
    embeds: [
      {
        color: COLOUR,
        description: tr('link:verify.steps', { name: escapeText(link.name, 60) }),
        ...(profile.icon ? { thumbnail: { url: profile.icon } } : {}),
      },
    ],
    components: [buttonRow(tr('link:verify.check'), encodeCustomId('lk.c', uid))],
  };
}

/** One check of the presser's proof for `uid`, at members' priority. */
async function checkProof(userId: string, uid: string, ctx: Ctx): Promise<View> {
  if (!ctx.verifications) throw new Error('proofs of ownership are not wired in this context');
  const link = await linkOf(userId, uid, ctx);
  if (!link) return privately(tr('link:verify.notLinked'));
  const name = escapeText(link.name, 60);
  // In place of the steps and without their Check button: not marked private, so the router updates the private message pressed.
  const verified: View = { embeds: [{ color: COLOUR, description: tr('link:verify.verified', { name }) }], components: [] };
  if (link.verifiedAt) return verified;
  const pending = await ctx.verifications.get(userId, uid);
  if (!pending) return privately(tr('link:verify.none'));
  const { outcome, nextCheckAt } = await checkOwnership(pending, { api: ctx.api, verifications: ctx.verifications, now: ctx.now, priority: 'interactive' });
  if (outcome === 'verified') return verified;
  if (outcome === 'expired')
    return {
      ...privately(tr('link:verify.expired')),
      components: [buttonRow(tr('link:verify.button'), encodeCustomId('lk.v', uid), ButtonStyle.Primary)],
    };
  return {
    ...privately(tr('link:verify.waiting', { when: discordTime((nextCheckAt ?? ctx.now()) / 1000) })),
    components: [buttonRow(tr('link:verify.check'), encodeCustomId('lk.c', uid))],
  };
}

export const unlink: CommandModule = {
  definition: slashCommand('unlink')
    .addStringOption((o) => o.setName('player').setDescription(describe('unlink.options.player')).setRequired(true).setAutocomplete(true).setMaxLength(100))
    .toJSON(),
  async execute(input, ctx: Ctx) {
    const which = String(input.options.player ?? '').trim();
    const removed = await ctx.links.unlink(input.user.userId, typedWord(which, ['all'], 'link:allWord') ? undefined : which);
    // An account no other member tracks leaves its recorded history with the link; the tracker would do it within minutes.
    await ctx.tracking
      ?.syncUids(
        removed.map((a) => a.uid),
        ctx.now(),
      )
      .catch((err: unknown) => ctx.logger.warn({ err }, 'could not stop tracking an unlinked account'));
    return privately(t.unlinked(removed.map((a) => escapeText(a.name, 60))));
  },
  /** The member's linked accounts matching what is typed (recent lookups left out: they cannot be unlinked), then "All linked accounts" in their locale. */
  async autocomplete(input, ctx: Ctx) {
    const [choices, links] = await Promise.all([playerChoices(input.user.userId, input.focused.value, ctx), ctx.links.get(input.user.userId)]);
    // By UID, not by the choice's label: the label is in the member's language.
    const uids = new Set(links.accounts.map((a) => a.uid));
    const linked = choices.filter((c) => uids.has(c.value));
    return linked.length > 0 ? [...linked, { name: truncate(tr('link:allAccounts'), LIMITS.choiceName), value: 'all' }] : [];
  },
};
