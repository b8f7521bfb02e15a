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
const shown = (err: unknown) => errorView(err, ctx).embeds?.[0]?.description ?? '';

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
