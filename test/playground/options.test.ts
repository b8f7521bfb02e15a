import { describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { CHANNELS, MEMBERS, ROLES } from '../../src/playground/guild.js';
import { resolveCommand } from '../../src/playground/options.js';
import { runInLocale } from '../../src/i18n/index.js';
import { t } from '../../src/render/strings.js';

const [ADMIN, MEMBER] = MEMBERS as [(typeof MEMBERS)[number], (typeof MEMBERS)[number]];
const patchNotes = CHANNELS.find((c) => c.name === 'patch-notes')!;
const general = CHANNELS.find((c) => c.name === 'general')!;

const resolve = (command: string, options: Record<string, string>, subcommand?: string, member = ADMIN) =>
  resolveCommand(commands, { command, subcommand, options }, member);

describe('options as Discord sends them', () => {
  it('converts choices, channels, roles, members, booleans and integers to interaction values', () => {
    const feed = resolve('config', { type: 'Patch notes', channel: '#patch-notes', role: '@Patch Pings', publish: 'true', backfill: '2' }, 'feed');
    expect(feed).toMatchObject({
      ok: true,
      subcommand: 'feed',
      display: '/config feed',
      options: { type: 'patchNotes', channel: patchNotes.id, role: ROLES.find((r) => r.name === 'Patch Pings')!.id, publish: true, backfill: 2 },
    });
    expect(resolve('config', { type: 'balances', channel: `<#${general.id}>` }, 'feed')).toMatchObject({
      ok: true,
      options: { type: 'balances', channel: general.id },
    });
    expect(resolve('player', { user: '@sam' })).toMatchObject({ ok: true, options: { user: MEMBER.id } });
    expect(resolve('player', { query: 'Card1gan', season: '2.5' })).toMatchObject({ ok: true, options: { query: 'Card1gan', season: 2.5 } });
  });

  it('refuses what Discord’s client would refuse, with a sentence that says why', () => {
    expect(resolve('hero', {})).toEqual({ ok: false, error: 'The option “name” is required.' });
    expect(resolve('hero', { name: 'Hulk', colour: 'green' })).toEqual({ ok: false, error: '/hero has no option “colour”.' });
    expect(resolve('leaderboard', { hero: 'Hulk', platform: 'Switch' })).toEqual({ ok: false, error: 'Pick one of PC, PlayStation, Xbox for “platform”.' });
    expect(resolve('config', { type: 'Patch notes', channel: '#patch-notes', backfill: '-1' }, 'feed')).toEqual({
      ok: false,
      error: '“backfill” must be between 0 and 10.',
    });
    expect(resolve('config', { type: 'Patch notes', channel: '#patch-notes', backfill: 'two' }, 'feed')).toEqual({
      ok: false,
      error: '“backfill” must be a whole number.',
    });
    expect(resolve('config', { enabled: 'maybe' }, 'private-answers')).toEqual({ ok: false, error: '“enabled” must be True or False.' });
    expect(resolve('config', { type: 'Patch notes', channel: '#nowhere' }, 'feed')).toEqual({
      ok: false,
      error: '“#nowhere” is not a channel this option takes (for “channel”).',
    });
    expect(resolve('config', {})).toEqual({
      ok: false,
      error: '/config needs one of: show, feed, feed-off, alerts, platform, private-answers, display, language, ladder, rank-roles, status, test-post, reset.',
    });
    expect(resolve('nope', {})).toEqual({ ok: false, error: 'There is no command /nope. Type / to see them all.' });
  });

  it('names the command, options and choices in a refusal as the member’s client does', () => {
    const french = (command: string, options: Record<string, string>, subcommand?: string, member = ADMIN) =>
      runInLocale('fr', () => resolveCommand(commands, { command, subcommand, options }, member, 'fr'));
    expect(french('hero', {})).toEqual({ ok: false, error: runInLocale('fr', () => t.playgroundMissingOption('nom')) });
    expect(french('leaderboard', { hero: 'Hulk', platform: 'Switch' })).toEqual({
      ok: false,
      error: runInLocale('fr', () => t.playgroundBadChoice('plateforme', ['PC', 'PlayStation', 'Xbox'])),
    });
    expect(french('config', {}, 'show', MEMBER)).toEqual({ ok: false, error: runInLocale('fr', () => t.playgroundNoPermission('configurer')) });
    // A choice typed by its French name is that choice.
    expect(french('config', { type: 'Équilibrages', channel: '#patch-notes' }, 'feed')).toMatchObject({
      ok: true,
      options: { type: 'balances', channel: patchNotes.id },
      display: '/config feed',
    });
  });

  it('keeps /config from members without Manage Server, as Discord hides it from them', () => {
    expect(resolve('config', {}, 'show', MEMBER)).toEqual({
      ok: false,
      error: 'Only members with Manage Server can use /config. Switch to an admin member to try it.',
    });
    expect(resolve('config', {}, 'show', ADMIN)).toMatchObject({ ok: true });
  });
});
