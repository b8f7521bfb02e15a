/**
 * An API argument the bot refuses before any request (src/api/endpoints.ts, `ApiArgumentError`), as the
 * member reads it: the option named as their client names it, and what is wrong in their language.
 */
import { describe, expect, it } from 'vitest';
import { ApiArgumentError } from '../../src/core/api-errors.js';
import { encodeSegment, platformParam, seasonParam } from '../../src/api/endpoints.js';
import { errorView } from '../../src/discord/router.js';
import { LOCALES, runInLocale } from '../../src/i18n/index.js';
import { createLogger } from '../../src/core/logger.js';
import { commands } from '../../commands/index.js';
import { tr } from '../../src/i18n/index.js';
import type { MessageKey } from '../../src/i18n/keys.js';

const ctx = { logger: createLogger({ level: 'silent', pretty: false }) };
const refusal = (work: () => unknown): ApiArgumentError => {
  try {
    work();
  } catch (err) {
    if (err instanceof ApiArgumentError) return err;
    throw err;
  }
  throw new Error('not refused');
};
const module = (name: string) => commands.find((m) => m.definition.name === name)!;
/** The error as the member reads it, from the module whose command failed (the player's, unless said). */
const shown = (err: unknown, owner = module(ownerOf(err))) => errorView(err, ctx, undefined, false, owner).embeds?.[0]?.description ?? '';
function ownerOf(err: unknown): string {
  const endpoint = err instanceof ApiArgumentError ? err.endpoint : '';
  return endpoint === 'match' ? 'match' : endpoint === 'heroLeaderboard' ? 'leaderboard' : 'player';
}

describe('a refused argument, as the member reads it', () => {
  const tooLong = refusal(() => encodeSegment('player', 'query', 'x'.repeat(300)));
  const dots = refusal(() => encodeSegment('match', 'match_uid', '..'));
  const season = refusal(() => seasonParam('player', '1.55'));
  const platform = refusal(() => platformParam('heroLeaderboard', 'switch'));

  it('in English: the option as registered, what is wrong, and the limit or the choices', () => {
    expect(shown(tooLong)).toBe('The option “query” takes at most 256 characters.');
    expect(shown(dots)).toBe('The option “match” must not be “.” or “..”.');
    expect(shown(season)).toBe('The option “season” must be a season number such as 1 or 1.5.');
    expect(shown(platform)).toBe('The option “platform” must be one of pc, ps, xbox.');
    // The log keeps the English reason.
    expect(tooLong.reason).toBe('must be at most 256 characters');
  });

  it('in Spanish and Japanese: the option’s localized name, the reason in the language', () => {
    expect(runInLocale('es-ES', () => shown(tooLong))).toBe('La opción «jugador» admite como máximo 256 caracteres.');
    expect(runInLocale('es-ES', () => shown(dots))).toBe('La opción «partida» no puede ser «.» ni «..».');
    expect(runInLocale('ja', () => shown(season))).toMatch(/^オプション「.+」は1や1.5のようなシーズン番号で入力してください。$/);
  });

  it('in every language, no English reason is left', () => {
    for (const locale of LOCALES.filter((l) => l !== 'en')) {
      for (const err of [tooLong, dots, season, platform]) {
        const text = runInLocale(locale, () => shown(err));
        expect(text.length, locale).toBeGreaterThan(10);
        expect(text, `${locale}: ${text}`).not.toMatch(/must|characters|season number|one of/);
      }
    }
  });
});

describe('each command names its own options', () => {
  const tooLong = refusal(() => encodeSegment('player', 'query', 'x'.repeat(300)));

  it('the same refused player is the option the member typed it in: query in /player, player in /link, the argument where none says', () => {
    expect(shown(tooLong, module('player'))).toBe('The option “query” takes at most 256 characters.');
    expect(shown(tooLong, module('link'))).toBe('The option “player” takes at most 256 characters.');
    // /compare has two player options: which one gave it is unknown, so the API's argument is named.
    expect(shown(tooLong, module('compare'))).toBe('The option “query” takes at most 256 characters.');
    expect(shown(tooLong, undefined)).toBe('The option “query” takes at most 256 characters.');
    const history = refusal(() => encodeSegment('matchHistoryV2', 'query', '..'));
    expect(shown(history, module('last'))).toBe('The option “player” must not be “.” or “..”.');
  });

  it('every option a module names is one its definition declares, with a name in the locale files', () => {
    const declared = commands.filter((m) => m.apiOptions);
    expect(declared.map((m) => m.definition.name).sort()).toEqual(
      ['achievements', 'battlepass', 'compare', 'hero', 'items', 'last', 'leaderboard', 'link', 'match', 'player', 'scout', 'session'].sort(),
    );
    for (const m of declared) {
      const options = new Set(('options' in m.definition ? (m.definition.options ?? []) : []).map((o) => o.name));
      for (const option of Object.values(m.apiOptions!)) {
        expect(options, `/${m.definition.name} ${option}`).toContain(option);
        const key = `commands:${m.definition.name}.options.${option}.name` as MessageKey;
        expect(tr(key), key).not.toBe(key);
      }
    }
  });
});
