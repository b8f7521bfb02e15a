/**
 * `/config show` names every setting `/config` changes: each option of each subcommand that sets something is driven,
 * then show is asked for it. A new option without a case here fails the first test. Also `feed-off` on a feed already off,
 * and `/config status` naming posts by their titles.
 */
import { describe, expect, it, vi } from 'vitest';
import type { APIApplicationCommandSubcommandOption, APIEmbed } from 'discord-api-types/v10';
import type { Invoker } from '../../src/discord/command.js';
import { RANK_ROLE_KEYS } from '../../src/game/rank-roles.js';
import { embedLength, LIMITS } from '../../src/render/limits.js';
import { ADMIN, testChannels, useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();
/** An admin who may also give roles (Manage Roles), as mapping a rank role asks. */
const ROLES_ADMIN = { ...ADMIN, permissions: String(0x20 | 0x10000000) };
const GUILD = ADMIN.guildId;

const config = (sub: string, options: Record<string, string | number | boolean> = {}, user: Invoker = ADMIN) => env.b.run('config', options, sub, user);
const fieldsText = (embed: APIEmbed) => (embed.fields ?? []).map((f) => `${f.name}: ${f.value}`).join('\n');
const showText = async () => fieldsText((await config('show')).view.embeds![0]!);

/** Subcommands that change nothing (they read, test or ask first), and options that are one-off actions rather than settings. */
const NOT_SETTINGS = new Set(['show', 'status', 'test-post', 'reset']);
const ACTIONS = new Map([
  // Posts sent once when the channel is set; the poller clears it after.
  ['feed backfill', 'the latest posts are sent once'],
]);

interface Step {
  sub: string;
  options: Record<string, string | number | boolean>;
  user?: Invoker;
  /** What /config show says once the step ran. */
  shows: (RegExp | string)[];
}

/** Run in order: later steps see what earlier ones set. */
const STEPS: Step[] = [
  {
    sub: 'feed',
    options: {
      type: 'balances',
      channel: '601',
      role: '701',
      heroes: 'hulk',
      quiet: '22:00-08:00',
      timezone: 'Europe/Paris',
      digest: 'daily',
      at: '18:00',
      thread: true,
    },
    shows: [
      /Balance posts: <#601> · pings <@&701> · only posts changing Hulk · quiet 22:00–08:00 \(Europe\/Paris\) · digest every day at 18:00 \(Europe\/Paris\) · full text in a thread/,
    ],
  },
  { sub: 'feed', options: { type: 'patchNotes', channel: '602', publish: true, backfill: 2 }, shows: [/Patch notes: <#602> · published/] },
  { sub: 'feed', options: { type: 'devDiaries', channel: '603' }, shows: [/Dev diaries: <#603>/] },
  { sub: 'feed-off', options: { type: 'devDiaries' }, shows: [/Dev diaries: Off/] },
  { sub: 'alerts', options: { channel: '604' }, shows: ['Hero alerts: <#604>'] },
  { sub: 'platform', options: { platform: 'ps' }, shows: ['/leaderboard platform: PlayStation'] },
  { sub: 'private-answers', options: { enabled: true }, shows: ['Private answers: On'] },
  { sub: 'display', options: { style: 'embeds' }, shows: ['Answers as: text only'] },
  { sub: 'language', options: { language: 'fr' }, shows: ['Language of posts and alerts: Français'] },
  {
    sub: 'ladder',
    options: {
      enabled: true,
      channel: '605',
      'rank-changes': true,
      peaks: false,
      'top-3': true,
      'season-end': false,
      recap: '3',
      at: '19:30',
      timezone: 'Asia/Tokyo',
      quiet: '23:00-07:00',
    },
    shows: [
      'Server ladder: On\nMoments are posted in <#605>: rank changes across a tier, members entering the top 3.',
      'Weekly recap: Wednesday at 19:30 (Asia/Tokyo).',
      'Quiet hours: 23:00–07:00 (Asia/Tokyo)',
    ],
  },
  { sub: 'ladder', options: { enabled: true, 'posts-off': true }, shows: ['Server ladder: On\nMoments are not posted'] },
  { sub: 'rank-roles', options: { tier: 'Gold', role: '706', enabled: true }, user: ROLES_ADMIN, shows: ['Rank roles: On\nGold → <@&706>'] },
  { sub: 'rank-roles', options: { tier: 'Gold', division: 'II', role: '707' }, user: ROLES_ADMIN, shows: ['Gold → <@&706>\nGold II → <@&707>'] },
  { sub: 'rank-roles', options: { enabled: false }, user: ROLES_ADMIN, shows: ['Rank roles: Off\nGold → <@&706>'] },
];

describe('/config show', () => {
  it('has a step for every option of every subcommand that changes a setting', () => {
    const definition = env.b.router.commands.find((c) => c.definition.name === 'config')!.definition as { options: APIApplicationCommandSubcommandOption[] };
    const missing: string[] = [];
    for (const sub of definition.options) {
      if (NOT_SETTINGS.has(sub.name)) continue;
      const steps = STEPS.filter((s) => s.sub === sub.name);
      if (steps.length === 0) missing.push(sub.name);
      for (const option of sub.options ?? []) {
        const key = `${sub.name} ${option.name}`;
        if (!ACTIONS.has(key) && !steps.some((s) => option.name in s.options)) missing.push(key);
      }
    }
    expect(missing).toEqual([]);
  });

  it('names what each step set', async () => {
    testChannels.announcement.add('602');
    try {
      for (const step of STEPS) {
        const answer = await config(step.sub, step.options, step.user);
        expect(answer.view.isError, `${step.sub} ${JSON.stringify(step.options)}`).toBeUndefined();
        const shown = await showText();
        for (const expected of step.shows) {
          if (typeof expected === 'string') expect(shown, step.sub).toContain(expected);
          else expect(shown, step.sub).toMatch(expected);
        }
      }
    } finally {
      testChannels.announcement.clear();
      await env.b.ctx.settings.reset(GUILD);
    }
  });

  it('shows a full mapping of rank roles beside every feed set, within Discord’s limits and uncut', async () => {
    const roleOf = (i: number) => String(900_000_000_000_000_000n + BigInt(i));
    await env.b.state.rankRoles.configure(GUILD, { set: Object.fromEntries(RANK_ROLE_KEYS.map((k, i) => [k, roleOf(i)])) }, env.b.ctx.now());
    const heroes = (await env.b.ctx.heroes.list()).slice(0, 10).map((h) => h.name);
    for (const type of ['patchNotes', 'balances', 'devDiaries', 'gameVersions'])
      await config('feed', {
        type,
        channel: '900000000000000601',
        role: '900000000000000701',
        ...(type === 'balances' ? { heroes: heroes.join(', ') } : {}),
        quiet: '22:00-08:00',
        timezone: 'America/Argentina/ComodRivadavia',
        digest: 'weekly',
      });
    await config('ladder', { enabled: true, channel: '900000000000000605', quiet: '23:00-07:00', timezone: 'America/Argentina/ComodRivadavia' });
    const embed = (await config('show')).view.embeds![0]!;
    expect(embed.fields!.length).toBeLessThanOrEqual(LIMITS.fields);
    for (const f of embed.fields!) expect(f.value.length, f.name).toBeLessThanOrEqual(LIMITS.fieldValue);
    expect(embedLength(embed)).toBeLessThanOrEqual(LIMITS.embedTotal);
    const text = fieldsText(embed);
    for (const [i, key] of RANK_ROLE_KEYS.entries()) expect(text).toContain(`${key} → <@&${roleOf(i)}>`);
    expect(embed.fields!.filter((f) => f.name === 'Rank roles (continued)').length).toBeGreaterThan(0);
    expect(text).not.toContain('…');
  });
});

describe('/config show when the store is slow', () => {
  it('answers with every other setting, and says which it could not read in time', async () => {
    let asked = 0;
    const never = () => {
      asked++;
      return new Promise<never>(() => undefined);
    };
    const spies = [
      vi.spyOn(env.b.ctx.ladder!, 'settings').mockImplementation(never),
      vi.spyOn(env.b.ctx.rankRoles!.store, 'settings').mockImplementation(never),
    ];
    try {
      const embed = (await config('show')).view.embeds![0]!;
      // Both reads were made, and neither held the answer.
      expect(asked).toBe(2);
      const fields = new Map(embed.fields!.map((f) => [f.name, f.value]));
      expect(fields.get('Server ladder')).toMatch(/^Could not be read in time: run `?\/config show`? again\.$/);
      expect(fields.get('Rank roles')).toMatch(/^Could not be read in time: run `?\/config show`? again\.$/);
      expect(fields.get('/leaderboard platform')).toBeDefined();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});

describe('/config feed-off', () => {
  it('turns a feed off, and says so when it was off already', async () => {
    await config('feed', { type: 'devDiaries', channel: '610' });
    expect((await config('feed-off', { type: 'devDiaries' })).payload.content).toBe(
      'Dev diaries: turned off. Nothing more will be posted until a channel is set again with `/config feed`.',
    );
    const again = await config('feed-off', { type: 'devDiaries' });
    expect(again.payload.content).toBe('Dev diaries: already off, nothing changed. Set a channel with `/config feed` to turn it on.');
    expect(fieldsText(again.view.embeds![0]!)).toContain('Dev diaries: Off');
  });
});

describe('/config status', () => {
  it('names the last post and the last correction by their titles; a digest by what it gathers; an unknown post by its id', async () => {
    await config('feed', { type: 'patchNotes', channel: '611' });
    await config('feed', { type: 'gameVersions', channel: '612' });
    await config('feed', { type: 'devDiaries', channel: '613', digest: 'weekly' });
    const settings = await env.b.ctx.settings.get(GUILD);
    const post = { id: 'pn-1', title: 'Version *20251113* Patch Notes', date: '2025-11-13', overview: null, image: null };
    await env.b.state.feedPosts.reconcile('patchNotes', [{ post, hash: 'h1', credible: true }], env.b.ctx.now());
    const at = 1_763_000_000_000;
    await env.b.state.settings.markDelivered(GUILD, 'patchNotes', settings.feeds.patchNotes!, 'pn-1', at);
    await env.b.state.settings.markEdited(GUILD, 'patchNotes', settings.feeds.patchNotes!, { postId: 'pn-1', at: at + 60_000, error: null });
    await env.b.state.settings.markDelivered(GUILD, 'gameVersions', settings.feeds.gameVersions!, '20251113', at);
    await env.b.state.settings.markDelivered(GUILD, 'devDiaries', settings.feeds.devDiaries!, 'digest:week-2025-11-10', at);
    const status = fieldsText((await config('status')).view.embeds![0]!);
    // The title is the API's text: escaped.
    expect(status).toContain('Patch notes: <#611> · Last post <t:1763000000:R>: “Version \\*20251113\\* Patch Notes”');
    expect(status).toContain('✏️ Last correction: “Version \\*20251113\\* Patch Notes”, edited in place <t:1763000060:R>.');
    expect(status).toContain('Game versions: <#612> · Last post <t:1763000000:R>: “Game version 20251113”');
    expect(status).toContain('Dev diaries: <#613> · Last post <t:1763000000:R>: “Dev diaries of the week”');
    await env.b.state.settings.markDelivered(GUILD, 'patchNotes', settings.feeds.patchNotes!, 'pn-unknown', at);
    expect(fieldsText((await config('status')).view.embeds![0]!)).toContain('Last post <t:1763000000:R>: post pn-unknown');
  });
});
