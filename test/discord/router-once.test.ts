/**
 * One interaction reads the member's language and their server's private default once: the runtime's
 * responder and the router share `ctx.once` (src/discord/router.ts `Router.once`).
 */
import { describe, expect, it } from 'vitest';
import type { CommandContext, CommandModule } from '../../src/discord/command.js';
import { Router } from '../../src/discord/router.js';
import { currentLocale } from '../../src/i18n/index.js';
import { createLogger } from '../../src/core/logger.js';

const USER = { userId: '200000000000000001', guildId: '300000000000000001', locale: 'en-US' };

/** A context whose store answers every read, counting them; nothing is in memory, so each answer needs a read. */
function countingContext() {
  const reads = { locale: 0, settings: 0 };
  const ctx = {
    logger: createLogger({ level: 'silent', pretty: false }),
    links: {
      peekLocale: () => undefined,
      locale: async () => {
        reads.locale++;
        return 'fr';
      },
    },
    settings: {
      peek: () => undefined,
      get: async () => {
        reads.settings++;
        return { ephemeralByDefault: true };
      },
    },
  } as unknown as CommandContext;
  return { ctx, reads };
}

const echo: CommandModule = {
  definition: { name: 'echo', description: 'echo' },
  execute: async () => ({ content: currentLocale() }),
};

describe('Router.once', () => {
  it('reads each once for a command whose responder also asked for the private default', async () => {
    const router = new Router([echo]);
    const { ctx, reads } = countingContext();
    ctx.once = router.once(USER, ctx);
    // The responder asks first (for its deferral), then the router answers.
    expect(await ctx.once.prefersPrivate()).toBe(true);
    const view = await router.command('echo', { options: {}, user: USER }, ctx);
    expect(view).toMatchObject({ content: 'fr', ephemeral: true });
    expect(reads).toEqual({ locale: 1, settings: 1 });
  });

  it('reads them itself when no runtime carried them (the CLI), once each', async () => {
    const router = new Router([echo]);
    const { ctx, reads } = countingContext();
    const view = await router.command('echo', { options: {}, user: USER }, ctx);
    expect(view).toMatchObject({ content: 'fr', ephemeral: true });
    expect(reads).toEqual({ locale: 1, settings: 1 });
  });
});

describe('Router.command and the drawing thread', () => {
  it('warms the chart renderer before a command that draws runs, and not for one that does not', async () => {
    const events: string[] = [];
    const charts = { warm: () => events.push('warm'), render: async () => Buffer.alloc(0), close: async () => undefined, threads: 0 };
    const draws: CommandModule = {
      definition: { name: 'draws', description: 'draws' },
      draws: true,
      execute: async () => (events.push('draws ran'), { content: 'x' }),
    };
    const plain: CommandModule = { definition: { name: 'plain', description: 'plain' }, execute: async () => (events.push('plain ran'), { content: 'x' }) };
    const router = new Router([draws, plain]);
    const { ctx } = countingContext();
    ctx.charts = charts;
    await router.command('draws', { options: {}, user: USER }, ctx);
    await router.command('plain', { options: {}, user: USER }, ctx);
    expect(events).toEqual(['warm', 'draws ran', 'plain ran']);
  });
});
