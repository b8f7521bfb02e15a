import { describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { registrationPayload } from '../../src/discord/deploy.js';
import { autocompleteSuggestions, optionsToSend, parseCommandLine, staticSuggestions, type Definition } from '../../src/playground/command-line.js';
import { CHANNELS, MEMBERS, ROLES } from '../../src/playground/guild.js';

const definitions = registrationPayload(commands) as Definition[];
const guild = { members: [...MEMBERS], channels: [...CHANNELS], roles: [...ROLES] };
const labels = (line: string) => staticSuggestions(line, parseCommandLine(line, definitions), definitions, guild).map((s) => s.label);

describe('the command bar language', () => {
  it('splits a command, its subcommand and options whose values contain spaces', () => {
    const parsed = parseCommandLine('/config feed type:Patch notes channel:#patch-notes publish:True', definitions);
    expect(parsed.definition?.name).toBe('config');
    expect(parsed.subcommand).toBe('feed');
    expect(parsed.options).toEqual({ type: 'Patch notes', channel: '#patch-notes', publish: 'True' });
    expect(parsed.focus).toMatchObject({ kind: 'option-value', option: { name: 'publish' }, text: 'True', word: 'True' });
  });

  it('knows an option name only where the definition has it (a colon in a value is text)', () => {
    const parsed = parseCommandLine('/match match:6713355_1740604074:322', definitions);
    expect(parsed.options).toEqual({ match: '6713355_1740604074:322' });
    expect(parseCommandLine('/hero name:Spider Man', definitions).options).toEqual({ name: 'Spider Man' });
  });

  it('suggests commands and each subcommand as Discord lists them, then options with required first', () => {
    expect(labels('/')).toEqual(expect.arrayContaining(['/hero', '/player', '/config feed', '/config status']));
    expect(labels('/')).not.toContain('/Rivals profile'); // a context-menu command is not typed
    expect(labels('/pa')).toEqual(['/patch-notes']);
    expect(labels('/config f')).toEqual(['/config feed', '/config feed-off']);
    expect(labels('/config feed ')).toEqual(['type:', 'channel:', 'role:', 'publish:', 'backfill:', 'heroes:', 'quiet:', 'timezone:', 'digest:', 'at:', 'thread:']);
    expect(labels('/player ')).toEqual(['query:', 'user:', 'season:']);
    expect(labels('/config feed type:Patch notes ch')).toEqual(['channel:']);
  });

  it('suggests choices, members, channels of the allowed types, roles and booleans for values', () => {
    expect(labels('/leaderboard hero:Hulk platform:x')).toEqual(['Xbox']);
    // "s" may also start the next option's name, so both are offered.
    expect(labels('/player user:s')).toEqual(['@Sam', 'season:']);
    expect(labels('/config feed type:Patch notes channel:')).toEqual(CHANNELS.map((c) => `#${c.name}`));
    expect(labels('/config feed type:Patch notes channel:#patch-notes role:')).toEqual(['@Patch Pings']);
    expect(labels('/config private-answers enabled:')).toEqual(['True', 'False']);
  });

  it('sends a picked choice by its value while its name is still what the bar shows', () => {
    const line = '/hero name:';
    const parsed = parseCommandLine(line, definitions);
    const [hulk] = autocompleteSuggestions(line, parsed, [{ name: 'Hulk', value: '1011' }]);
    expect(hulk!.line).toBe('/hero name:Hulk ');
    const picks = new Map([[hulk!.pick!.option, { name: hulk!.pick!.name, value: hulk!.pick!.value }]]);
    expect(optionsToSend(parseCommandLine(hulk!.line, definitions), picks)).toEqual({ name: '1011' });
    // Edited afterwards: what is typed is sent.
    expect(optionsToSend(parseCommandLine('/hero name:Hulkling', definitions), picks)).toEqual({ name: 'Hulkling' });
  });

  it('takes text typed straight after the command as the first required option, as Discord’s client does', () => {
    const hero = parseCommandLine('/hero hul', definitions);
    expect(hero.options).toEqual({ name: 'hul' });
    expect(hero.focus).toMatchObject({ kind: 'option-value', option: { name: 'name' }, implicit: true });
    const [hulk] = autocompleteSuggestions('/hero hul', hero, [{ name: 'Hulk', value: '1011' }]);
    expect(hulk!.line).toBe('/hero name:Hulk ');
    expect(parseCommandLine('/config feed Patch notes channel:#patch-notes', definitions).options).toEqual({ type: 'Patch notes', channel: '#patch-notes' });
    expect(parseCommandLine('/player Card1gan season:2', definitions).options).toEqual({ query: 'Card1gan', season: '2' });
    expect(labels('/leaderboard Hulk platform:PC')).toEqual(['PC']);
  });

  it('treats a line without a slash, or an unknown command, as the command being typed', () => {
    expect(parseCommandLine('hello', definitions).focus).toEqual({ kind: 'command', text: 'hello' });
    expect(parseCommandLine('/nope x', definitions).focus).toEqual({ kind: 'command', text: 'nope' });
    expect(parseCommandLine('/config nope ', definitions).focus).toEqual({ kind: 'subcommand', text: 'nope' });
  });
});
