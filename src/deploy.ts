/**
 * `npm run deploy`: registers the slash commands in `DISCORD_DEV_GUILD_ID` when set (instant), else globally; then brings
 * the application's tier, role and hero emojis in step with the API's icons (src/app/emoji-deploy.ts).
 */
import { pino } from 'pino';
import { commands } from '../commands/index.js';
import { createLogger } from './core/logger.js';
import { deployEmojis, emojiReport } from './app/emoji-deploy.js';
import { ConfigError, loadConfig } from './app/config.js';
import { deployCommands } from './discord/deploy.js';
import { discordFailure, inviteUrl, userInstallUrl, type DiscordStep } from './discord/startup.js';
import { EnvFileError, loadEnvFile } from './app/env-file.js';

/** What the failure was about, for its advice: filled in as the configuration is read. */
let step: DiscordStep = { host: 'discord.com', doing: 'register the slash commands', again: 'run `npm run deploy` again' };
try {
  const envFile = loadEnvFile();
  if (envFile) process.stderr.write(`deploy: read the environment from ${envFile}\n`);
  const config = loadConfig(process.env);
  const { token, clientId, devGuildId, apiUrl } = config.discord;
  if (!token || !clientId) {
    process.stderr.write(`deploy: set ${[!token && 'DISCORD_TOKEN', !clientId && 'DISCORD_CLIENT_ID'].filter(Boolean).join(' and ')} (see .env.example)\n`);
    process.exitCode = 2;
  } else {
    step = { ...step, host: new URL(apiUrl).host, devGuildId };
    const { count, scope } = await deployCommands({ token, clientId, guildId: devGuildId, apiUrl, modules: commands });
    process.stdout.write(`deploy: registered ${count} commands (${scope})${devGuildId ? '' : '; global changes can take up to an hour to show'}\n`);
    // The next step of a first set-up: adding the bot where it is to answer.
    process.stdout.write(
      `deploy: add the bot to a server: ${inviteUrl(clientId)}\ndeploy: or the game commands to your own account: ${userInstallUrl(clientId)}\n`,
    );
    // Emojis only dress the answers: a failure here is reported, and the registration above stands.
    const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'warn', destination: pino.destination(2), secrets: [config.rivals.apiKey, token] });
    try {
      process.stdout.write(`${emojiReport(await deployEmojis(config, logger)).join('\n')}\n`);
    } catch (err) {
      const { message } = discordFailure(err, { ...step, doing: 'upload the emojis' });
      process.stderr.write(`deploy: the emojis were not brought in step: ${message} (until then, answers name tiers, roles and heroes as text)\n`);
    }
  }
} catch (err) {
  if (err instanceof ConfigError || err instanceof EnvFileError) process.stderr.write(`${err.message}\n`);
  // The same words as `npm start`'s login (src/discord/startup.ts): Discord unreached is not Discord refusing.
  else process.stderr.write(`deploy: ${discordFailure(err, step).message}\n`);
  process.exitCode = 1;
}
