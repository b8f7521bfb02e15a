/** `/link` and `/unlink`: a member's game accounts, so `/player` alone shows their default. Data: api-spec.md endpoint 17. */
import { SlashCommandBuilder } from '@discordjs/builders';
import type { CommandModule } from '../discord/command.js';
import { describe } from '../i18n/commands.js';
import { tr, typedWord } from '../i18n/index.js';
import { t } from '../render/strings.js';
import { escapeText, LIMITS, truncate } from '../render/limits.js';
import type { View } from '../render/view.js';
import { playerChoices } from '../catalog/players.js';

const COLOUR = 0x22c55e;
const privately = (description: string): View => ({ ephemeral: true, embeds: [{ color: COLOUR, description }] });

export const link: CommandModule = {
  definition: new SlashCommandBuilder()
    .setName('link')
    .setDescription(describe('link'))
    .addStringOption((o) => o.setName('player').setDescription(describe('link.options.player')).setRequired(true).setMaxLength(100))
    .addBooleanOption((o) => o.setName('default').setDescription(describe('link.options.default')))
    .toJSON(),
  async execute(input, ctx) {
    // A private profile can still be linked: its owner may open it later.
    const profile = (await ctx.api.player(String(input.options.player ?? ''), {}, { fresh: true })).data;
    const links = await ctx.links.link(input.user.userId, { uid: profile.uid, name: profile.name }, input.options.default === true, ctx.now());
    // The link stands without it: the tracker follows the links again within minutes.
    await ctx.tracking
      ?.follow(profile.uid, ctx.now(), input.user.userId)
      .catch((err: unknown) => ctx.logger.warn({ err }, 'could not start tracking a linked account'));
    const lines = links.accounts.map((a) => `${a.uid === links.defaultUid ? '★' : '•'} ${escapeText(a.name, 60)} (UID ${a.uid})`);
    const tracking = ctx.tracking && !profile.is_private ? `\n${tr('messages:links.tracking')}` : '';
    return privately(`${t.linked(escapeText(profile.name, 60), profile.uid, links.defaultUid === profile.uid)}${tracking}\n\n${t.linkedList(lines)}`);
  },
};

export const unlink: CommandModule = {
  definition: new SlashCommandBuilder()
    .setName('unlink')
    .setDescription(describe('unlink'))
    .addStringOption((o) => o.setName('player').setDescription(describe('unlink.options.player')).setRequired(true).setAutocomplete(true).setMaxLength(100))
    .toJSON(),
  async execute(input, ctx) {
    const which = String(input.options.player ?? '').trim();
    const removed = await ctx.links.unlink(input.user.userId, typedWord(which, ['all'], 'link:allWord') ? undefined : which);
    // An account no other member tracks leaves its recorded history with the link; the tracker would do it within minutes.
    await ctx.tracking?.sync(ctx.now()).catch((err: unknown) => ctx.logger.warn({ err }, 'could not stop tracking an unlinked account'));
    return privately(t.unlinked(removed.map((a) => escapeText(a.name, 60))));
  },
  /** The member's linked accounts matching what is typed (recent lookups left out: they cannot be unlinked), then "All linked accounts" in their locale. */
  async autocomplete(input, ctx) {
    const [choices, links] = await Promise.all([playerChoices(input.user.userId, input.focused.value, ctx), ctx.links.get(input.user.userId)]);
    // By UID, not by the choice's label: the label is in the member's language.
    const uids = new Set(links.accounts.map((a) => a.uid));
    const linked = choices.filter((c) => uids.has(c.value));
    return linked.length > 0 ? [...linked, { name: truncate(tr('link:allAccounts'), LIMITS.choiceName), value: 'all' }] : [];
  },
};
