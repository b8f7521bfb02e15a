/**
 * Tiers as the game names them in each language the bot speaks (docs/languages.md says where each name comes from): every
 * tier and division has its name in every locale's `common:tiers`, and the answers that name a tier (the /player title,
 * peaks and pace, the rank history, the ladder and its moments, /compare, the rank roles of /config, the charts' tier
 * bands) show it in the member's or the server's language, while what the bot keeps (the tiers an admin maps to roles)
 * stays in English.
 */
import { describe, expect, it } from 'vitest';
import { commandsFile, textsAt } from '../../src/i18n/commands.js';
import { hasMessage, LOCALES, runInLocale, trIn, type Locale } from '../../src/i18n/index.js';
import { tierName } from '../../src/i18n/names.js';
import { playerView } from '../../commands/player.js';
import { bandsWithin } from '../../src/charts/tiers.js';
import { momentView } from '../../src/ladder/moments.js';
import { DIVISIONS, TIER_NAMES, tierOfLevel } from '../../src/game/ranks.js';
import { profiles } from '../game/samples.js';
import { ADMIN, useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();

/** The game's own names for each tier, as docs/languages.md lists them. */
const GOLD: Record<Locale, string> = { en: 'Gold', 'es-ES': 'Oro', 'pt-BR': 'Ouro', fr: 'Or', de: 'Gold', ja: 'ゴールド' };
const GRANDMASTER: Record<Locale, string> = {
  en: 'Grandmaster',
  'es-ES': 'Gran maestro',
  'pt-BR': 'Grão-Mestre',
  fr: 'Grand maître',
  de: 'Großmeister',
  ja: 'マスター',
};
/** "To Gold I" in each language: the pace's field on Double C's profile (Gold II, 3,752). */
const PACE: Record<Locale, string> = {
  en: 'To Gold I',
  'es-ES': 'Hasta Oro I',
  'pt-BR': 'Até Ouro I',
  fr: 'Jusqu’à Or I',
  de: 'Bis Gold I',
  ja: 'ゴールド Iまで',
};

const KEYS = ['bronze', 'silver', 'gold', 'platinum', 'diamond', 'grandmaster', 'celestial', 'eternity', 'oneAboveAll'] as const;

describe('tier names', () => {
  it('every tier has its name in every locale, and every division reads as the tier and its numeral', () => {
    expect(TIER_NAMES).toHaveLength(KEYS.length);
    for (const locale of LOCALES) {
      for (const key of [...KEYS, 'division']) expect(hasMessage(locale, `common:tiers.${key}`), `${locale} common:tiers.${key}`).toBe(true);
      runInLocale(locale, () => {
        TIER_NAMES.forEach((tier, i) => expect(tierName(tier), `${locale} ${tier}`).toBe(trIn(locale, `common:tiers.${KEYS[i]!}`)));
        for (let level = 1; level <= 21; level++) {
          const [tier, division] = [tierOfLevel(level)!.split(' ')[0]!, tierOfLevel(level)!.split(' ')[1]!];
          expect(DIVISIONS).toContain(division);
          expect(tierName(tierOfLevel(level))).toBe(`${tierName(tier)} ${division}`);
        }
      });
    }
    expect(runInLocale('fr', () => tierName('Gold II'))).toBe('Or II');
    expect(runInLocale('ja', () => tierName('grandmaster i'))).toBe('マスター I');
    // Anything else is shown as it is.
    expect(runInLocale('fr', () => tierName('Non classé'))).toBe('Non classé');
    expect(tierName(null)).toBeNull();
  });

  it('the tier choices of /config rank-roles are the same names, the one list in common:tiers', () => {
    for (const locale of LOCALES) {
      const choices = textsAt(commandsFile(locale), 'config.subcommands.rank-roles.options.tier')?.choices;
      expect(choices, locale).toEqual(Object.fromEntries(TIER_NAMES.map((t, i) => [t, trIn(locale, `common:tiers.${KEYS[i]!}`)])));
    }
  });

  it('the rank chart’s tier bands are named in the chart’s language', () => {
    expect(runInLocale('fr', () => bandsWithin(3000, 9999).map((b) => b.label))).toEqual([
      'Bronze',
      'Argent',
      'Or',
      'Platine',
      'Diamant',
      'Grand maître',
      'Céleste',
      'Éternité / One Above All',
    ]);
    expect(runInLocale('en', () => bandsWithin(3600, 3700).map((b) => b.label))).toEqual(['Gold']);
  });
});

describe.each(LOCALES)('answers in %s name tiers as the game does', (locale) => {
  it('/player: the title, the season’s peak and the pace', async () => {
    const p = profiles['doublec8-double-c-1786151874-2025-08-05.json']!;
    const view = await runInLocale(locale, () =>
      playerView({ data: p, fetchedAt: 0, ageMs: 0, stale: false, source: 'upstream' }, 'profile', 1, null, env.b.ctx),
    );
    const embed = view.embeds![0]!;
    expect(embed.title).toBe(`${GOLD[locale]} II`);
    expect(embed.fields!.map((f) => f.name)).toContain(PACE[locale]);
    expect(embed.fields!.some((f) => f.value.startsWith(`${GOLD[locale]} II · `))).toBe(true);
  });

  it('a ladder moment: the tiers crossed', () => {
    const view = runInLocale(locale, () =>
      momentView({ userId: '1', name: 'Double C', moment: { kind: 'rank-up', from: 'Gold I', to: 'Grandmaster III' } }, false),
    );
    const text = view.embeds![0]!.description!;
    expect(text).toContain(`${GOLD[locale]} I`);
    expect(text).toContain(`${GRANDMASTER[locale]} III`);
    if (locale !== 'en') expect(text).not.toContain('Grandmaster');
  });
});

describe('rank roles', () => {
  it('an admin in French maps “Gold II”: the answer names Or II, the mapping kept is Gold II', async () => {
    const admin = { ...ADMIN, permissions: String(0x20 | 0x400 | 0x800 | 0x10000000) };
    const answer = await runInLocale('fr', () => env.b.run('config', { tier: 'Gold', division: 'II', role: '701' }, 'rank-roles', admin));
    const mapping = answer.payload.embeds[0]!.fields![0]!.value;
    expect(mapping).toBe('Or II → <@&701>');
    expect((await env.b.ctx.rankRoles!.store.settings(admin.guildId)).roles).toEqual({ 'Gold II': '701' });
    const shown = await runInLocale('fr', () => env.b.run('config', {}, 'show', admin));
    expect(shown.payload.embeds[0]!.fields!.map((f) => f.value).join('\n')).toContain('Or II → <@&701>');
  });
});
