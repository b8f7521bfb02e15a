/**
 * `npm run cli -- <command> [subcommand] [option:value ...] [--json] [--press <custom-id>[=<value>]] [--user <id>] [--locale <code>] [--files <dir>]`
 *
 * Runs a slash command's handler against the configured API (the replica without a key) and prints the View as text, or with
 * `--json` only the JSON part of the payload Discord would receive (logs go to stderr). `--press` follows a button or select of the
 * previous payload, repeatable; `--locale` is the member's Discord locale ({@link cliLocale}); `--files` writes attachments to a dir.
 * Exit codes: 0 shown, 1 the bot answered with an error message, 2 bad command line.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApplicationCommandOptionType, ComponentType, Locale as DiscordLocale, type APIApplicationCommandOption } from 'discord-api-types/v10';
import { pino } from 'pino';
import { createLogger } from './core/logger.js';
import { commands } from '../commands/index.js';
import { ConfigError, loadConfig } from './app/config.js';
import { EnvFileError, loadEnvFile } from './app/env-file.js';
import type { CommandContext, CommandInput } from './discord/command.js';
import { Router } from './discord/router.js';
import { payloadToText } from './render/text.js';
import { lastVersion, splitFiles, toMessagePayload, type MessagePayload, type View, type ViewFile } from './render/view.js';
import { faultsFromEnv } from './replica/faults.js';
import { createApiServices, createCommandContext } from './app/services.js';
import { HeroMeta } from './jobs/hero-meta.js';
import { DISCORD_LOCALES, LOCALE_NAMES, LOCALES } from './i18n/index.js';
import { BalanceIndexer } from './jobs/balance-indexer.js';

class UsageError extends Error {}

/** `--help`: the usage, every slash command with its description, and examples. */
export function helpText(router: Router): string {
  const slash = router.commands.filter((c) => 'options' in c.definition || c.definition.type === undefined || c.definition.type === 1);
  const width = Math.max(...slash.map((c) => c.definition.name.length));
  const lines = slash.map((c) => `  ${c.definition.name.padEnd(width)}  ${'description' in c.definition ? c.definition.description : ''}`);
  return [
    USAGE,
    '',
    "Runs one slash command's answer in this terminal, against the game API (the in-process replica without RIVALS_API_KEY).",
    '',
    'Commands:',
    ...lines,
    '',
    'Options:',
    '  --json                 print only the JSON Discord would receive',
    '  --press <custom-id>    press a button (or <custom-id>=<value> for a menu) of the answer; repeatable',
    '  --user <id>            the member running it (default 100000000000000001)',
    '  --locale <code>        their Discord language (en-US, de, fr, es-ES, pt-BR, ja)',
    '  --files <dir>          write the attachments (charts) to <dir>',
    '  --help, -h             this text',
    '',
    'Examples:',
    '  npm run cli -- player query:Card1gan',
    '  npm run cli -- hero name:Hulk --locale de',
    '  npm run cli -- leaderboard hero:Hulk --json',
    '',
    'Exit codes: 0 shown, 1 the bot answered with an error message, 2 bad command line.',
    '',
  ].join('\n');
}

const USAGE =
  'usage: npm run cli -- <command> [subcommand] [option:value ...] [--json] [--press <custom-id>[=<value>]] [--user <id>] [--locale <code>] [--files <dir>]';

/** Every locale code Discord sends (Discord: "Reference › Locales"), lower-cased → as Discord spells it. */
const DISCORD_CODES = new Map(Object.values(DiscordLocale).map((code) => [code.toLowerCase(), code] as const));

/**
 * One of Discord's codes in any case, as Discord spells it, or one of ours as the first Discord code it serves; a Discord
 * locale the bot does not speak (`ko`) is accepted and answered in English, as on Discord.
 * @throws {UsageError} for any other code, listing the locales the bot speaks.
 */
export function cliLocale(code: string): string {
  const lower = code.trim().toLowerCase();
  const discord = DISCORD_CODES.get(lower);
  if (discord) return discord;
  const ours = LOCALES.find((l) => l.toLowerCase() === lower);
  if (ours) return DISCORD_LOCALES[ours][0]!;
  const spoken = LOCALES.map((l) => `${DISCORD_LOCALES[l].join('/')} (${LOCALE_NAMES[l]})`).join(', ');
  throw new UsageError(
    `unknown locale "${code}"; the bot speaks ${spoken}; other Discord locales (${[...DISCORD_CODES.values()].filter((c) => !LOCALES.some((l) => DISCORD_LOCALES[l].includes(c))).join(', ')}) get English`,
  );
}

/** Makes `dir` if missing, and says so on stderr. */
async function writeFiles(dir: string, files: ViewFile[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const f of files) {
    const path = join(dir, f.name);
    await writeFile(path, f.data);
    process.stderr.write(`cli: wrote ${path}\n`);
  }
}

interface Parsed {
  command: string;
  input: CommandInput;
  json: boolean;
  presses: string[];
  /** `--files`; undefined: not written. */
  filesDir?: string;
}

/** @throws {UsageError} naming what is wrong. */
export function parseCliArgs(argv: string[], router: Router, userId = '100000000000000001'): Parsed {
  const slash = router.commands.filter((c) => 'options' in c.definition || c.definition.type === undefined || c.definition.type === 1);
  const names = slash.map((c) => c.definition.name);
  const positional: string[] = [];
  const presses: string[] = [];
  let json = false;
  let user = userId;
  let filesDir: string | undefined;
  let locale = 'en-US';
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--json') json = true;
    else if (a === '--press' || a === '--user' || a === '--files' || a === '--locale') {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      if (a === '--press') presses.push(v);
      else if (a === '--files') filesDir = v;
      else if (a === '--locale') locale = cliLocale(v);
      else user = v;
    } else if (a.startsWith('--')) throw new UsageError(`unknown flag ${a}`);
    else positional.push(a);
  }
  const [command, ...rest] = positional;
  if (!command) throw new UsageError(`name a command: ${names.join(', ')}`);
  const module = slash.find((c) => c.definition.name === command.replace(/^\//, ''));
  if (!module) throw new UsageError(`unknown command "${command}"; the commands are ${names.join(', ')}`);
  let options = 'options' in module.definition ? (module.definition.options ?? []) : [];
  let subcommand: string | undefined;
  const subcommands = options.filter((o) => o.type === ApplicationCommandOptionType.Subcommand);
  if (subcommands.length > 0) {
    const sub = rest[0] && !rest[0].includes(':') ? rest.shift() : undefined;
    const chosen = subcommands.find((s) => s.name === sub);
    if (!chosen) throw new UsageError(`/${module.definition.name} needs a subcommand: ${subcommands.map((s) => s.name).join(', ')}`);
    subcommand = chosen.name;
    options = ('options' in chosen ? chosen.options : []) ?? [];
  }
  const values: CommandInput['options'] = {};
  for (const pair of rest) {
    const at = pair.indexOf(':');
    if (at <= 0) throw new UsageError(`options are written name:value (got "${pair}")`);
    const name = pair.slice(0, at);
    const raw = pair.slice(at + 1);
    const option = options.find((o) => o.name === name);
    if (!option)
      throw new UsageError(
        `/${module.definition.name}${subcommand ? ` ${subcommand}` : ''} has no option "${name}"; it has ${options.map((o) => o.name).join(', ') || 'none'}`,
      );
    values[name] = coerce(option, raw);
  }
  for (const o of options) if ('required' in o && o.required && values[o.name] === undefined) throw new UsageError(`option "${o.name}" is required`);
  return { command: module.definition.name, input: { subcommand, options: values, user: { userId: user, guildId: null, locale } }, json, presses, filesDir };
}

function coerce(option: APIApplicationCommandOption, raw: string): string | number | boolean {
  const choices = 'choices' in option ? option.choices : undefined;
  let value: string | number | boolean = raw;
  if (option.type === ApplicationCommandOptionType.Integer || option.type === ApplicationCommandOptionType.Number) {
    value = Number(raw);
    if (!Number.isFinite(value) || (option.type === ApplicationCommandOptionType.Integer && !Number.isInteger(value))) {
      throw new UsageError(
        `option "${option.name}" takes a ${option.type === ApplicationCommandOptionType.Integer ? 'whole number' : 'number'} (got "${raw}")`,
      );
    }
  } else if (option.type === ApplicationCommandOptionType.Boolean) {
    if (!/^(true|false)$/i.test(raw)) throw new UsageError(`option "${option.name}" takes true or false (got "${raw}")`);
    value = raw.toLowerCase() === 'true';
  }
  if (choices && choices.length > 0 && !choices.some((c) => String(c.value) === String(value))) {
    throw new UsageError(`option "${option.name}" takes one of ${choices.map((c) => String(c.value)).join(', ')} (got "${raw}")`);
  }
  return value;
}

/** A button's custom ID, or a select's `custom-id=value` or bare value. */
export function findPress(payload: MessagePayload, press: string): { customId: string; values: string[] } | null {
  for (const row of payload.components) {
    for (const c of row.components) {
      if (c.type === ComponentType.Button && 'custom_id' in c && c.custom_id === press) return c.disabled ? null : { customId: c.custom_id, values: [] };
      if (c.type === ComponentType.StringSelect) {
        const eq = press.indexOf('=');
        const [id, value] = eq === -1 ? [c.custom_id, press] : [press.slice(0, eq), press.slice(eq + 1)];
        if (id === c.custom_id && c.options.some((o) => o.value === value)) return { customId: c.custom_id, values: [value] };
      }
    }
  }
  return null;
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(helpText(new Router(commands)));
    return 0;
  }
  let config;
  try {
    const envFile = loadEnvFile();
    if (envFile) process.stderr.write(`cli: read the environment from ${envFile}\n`);
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof EnvFileError) {
      process.stderr.write(`${err.message}\n`);
      return 2;
    }
    throw err;
  }
  // Logs to stderr only, so stdout carries nothing but the view.
  const logger = createLogger({
    level: process.env.LOG_LEVEL ?? 'warn',
    destination: pino.destination(2),
    secrets: [config.rivals.apiKey, config.discord.token],
  });
  const router = new Router(commands);
  let parsed: Parsed;
  try {
    parsed = parseCliArgs(argv, router);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`cli: ${err.message}\n${USAGE}\n`);
    return 2;
  }
  const services = await createApiServices(config, logger, faultsFromEnv(process.env));
  if (services.replica) process.stderr.write('cli: no RIVALS_API_KEY, so this runs on the in-process API replica\n');
  try {
    const base = createCommandContext(services.api, services.state, services.cacheStore, undefined, undefined, undefined, services.charts);
    // No background jobs: /meta waits for its first gathering, and /hero's balance history is read once (the CLI has no deadline).
    const balanceIndexer = new BalanceIndexer({ api: services.api, heroes: base.heroes, history: services.state.balanceHistory, logger });
    if (parsed.command === 'hero') await balanceIndexer.run();
    const ctx: CommandContext = {
      ...base,
      meta: new HeroMeta({ api: services.api, heroes: base.heroes, logger }),
      balance: { history: services.state.balanceHistory, indexer: balanceIndexer },
      logger,
    };
    // A terminal prints once: the answer as complete as it gets (a scout with every profile read).
    let view: View = await lastVersion(await router.command(parsed.command, parsed.input, ctx));
    let payload = toMessagePayload(view);
    for (const press of parsed.presses) {
      const target = findPress(payload, press);
      if (!target) {
        process.stderr.write(`cli: nothing to press for "${press}" in the previous message (see its custom IDs with --json)\n`);
        return 2;
      }
      const result = await router.component(target.customId, target.values, parsed.input.user, parsed.input.user.userId, ctx);
      view = await lastVersion(result.view);
      payload = toMessagePayload(view);
    }
    process.stdout.write(parsed.json ? `${JSON.stringify(splitFiles(payload).json)}\n` : `${payloadToText(payload)}\n`);
    if (parsed.filesDir) await writeFiles(parsed.filesDir, splitFiles(payload).files);
    return view.isError ? 1 : 0;
  } finally {
    await services.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
