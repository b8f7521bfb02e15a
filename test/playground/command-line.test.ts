import { describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { registrationPayload } from '../../src/discord/deploy.js';
import {
  autocompleteSuggestions,
  commandLabel,
  localizeDefinition,
  optionsToSend,
  parseCommandLine,
  registeredCommand,
  staticSuggestions,
  type Definition,
} from '../../src/playground/command-line.js';
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
    expect(labels('/config feed ')).toEqual([
      'type:',
      'channel:',
      'role:',
      'publish:',
      'backfill:',
      'heroes:',
      'quiet:',
      'timezone:',
      'digest:',
      'at:',
      'thread:',
    ]);
    expect(labels('/player ')).toEqual(['query:', 'user:', 'season:', 'hero:']);
    expect(labels('/config feed type:Patch notes ch')).toEqual(['channel:']);
  });

  it('suggests choices, members, channels of the allowed types, roles and booleans for values', () => {
    expect(labels('/leaderboard hero:Hulk platform:x')).toEqual(['Xbox']);
    // "s" may also start the next option's name, so both are offered.
    expect(labels('/player user:s')).toEqual(['@Sam', 'season:']);
    expect(labels('/config feed type:Patch notes channel:')).toEqual(CHANNELS.map((c) => `#${c.name}`));
    expect(labels('/config feed type:Patch notes channel:#patch-notes role:')).toEqual(ROLES.map((r) => `@${r.name}`));
    expect(labels('/config feed type:Patch notes channel:#patch-notes role:pat')).toEqual(['@Patch Pings']);
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

  describe('in a member’s language', () => {
    const french = definitions.map((d) => localizeDefinition(d, 'fr'));
    const frenchLabels = (line: string) => staticSuggestions(line, parseCommandLine(line, french), french, guild).map((s) => s.label);
    const noPicks = new Map<string, { name: string; value: string | number }>();

    it('lists commands, subcommands, options and choices by the names and descriptions registered for the locale', () => {
      expect(frenchLabels('/conf')).toContain('/configurer flux');
      expect(frenchLabels('/conf')).not.toContain('/config feed');
      const [classement] = staticSuggestions('/class', parseCommandLine('/class', french), french, guild);
      expect(classement).toMatchObject({ label: '/classement', detail: 'Les meilleurs joueurs classés de la saison, ou d’un héros', line: '/classement ' });
      expect(frenchLabels('/configurer flux ')).toEqual(expect.arrayContaining(['type:', 'salon:', 'rôle:', 'rattrapage:']));
      expect(frenchLabels('/configurer flux type:')).toEqual(['Notes de patch', 'Équilibrages', 'Journaux de développement', 'Versions du jeu']);
      expect(frenchLabels('/classement Hulk plateforme:')).toEqual(['PC', 'PlayStation', 'Xbox']);
    });

    it('sends the registered names and choice values, whichever language they were typed in', () => {
      const typed = parseCommandLine('/configurer flux type:Équilibrages salon:#patch-notes rattrapage:2', french);
      expect(typed.options).toEqual({ type: 'Équilibrages', salon: '#patch-notes', rattrapage: '2' });
      expect(registeredCommand(typed, noPicks)).toEqual({
        command: 'config',
        subcommand: 'feed',
        options: { type: 'balances', channel: '#patch-notes', backfill: '2' },
      });
      // The registered (English) names work too, as the bar does not know which a member means.
      const english = parseCommandLine('/config feed type:journaux de développement channel:#general', french);
      expect(registeredCommand(english, noPicks)).toEqual({ command: 'config', subcommand: 'feed', options: { type: 'devDiaries', channel: '#general' } });
      // A picked autocomplete choice is sent by its value, under the option's registered name.
      const line = '/héros nom:';
      const [hulk] = autocompleteSuggestions(line, parseCommandLine(line, french), [{ name: 'Hulk', value: '1011' }]);
      const picks = new Map([[hulk!.pick!.option, { name: 'Hulk', value: '1011' }]]);
      expect(registeredCommand(parseCommandLine(hulk!.line, french), picks)).toEqual({ command: 'hero', options: { name: '1011' } });
      expect(registeredCommand(parseCommandLine('hello', french), noPicks)).toEqual({ command: '', options: {} });
    });

    it('names a command as members see it, in their language, and keeps a name it does not know', () => {
      expect(commandLabel('/config feed', french, 'slash')).toBe('/configurer flux');
      expect(commandLabel('/hero', french, 'slash')).toBe('/héros');
      expect(commandLabel('/config feed', definitions, 'slash')).toBe('/config feed');
      expect(commandLabel('/gone', french, 'slash')).toBe('/gone');
      const profile = definitions.find((d) => d.type === 2)!;
      expect(commandLabel(profile.name, french, 'user')).toBe(profile.name_localizations!.fr);
      expect(profile.name_localizations!.fr).not.toBe(profile.name);
      // A locale with no localizations (English) reads the registered texts.
      expect(localizeDefinition(definitions[0]!, 'en-US')).toMatchObject({
        name: definitions[0]!.name,
        description: definitions[0]!.description,
        key: definitions[0]!.name,
      });
    });
  });
});
