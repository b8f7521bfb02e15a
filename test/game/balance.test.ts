/**
 * The balance classifier (src/game/balance.ts) on hand-written paragraphs in the real posts' style:
 * heading-style hero paragraphs with form sub-headings and developer comments, one-line changes,
 * bug fixes, aliases, mixed changes, stat polarity, and names that must not match. The hero list is
 * the real capture (api-samples/heroes), parsed by the client's schemas.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyLine, heroCatalog, heroChanges, heroesNamedIn, heroVerdict, VERDICTS, type HeroChange } from '../../src/game/balance.js';
import { SAMPLES_DIR } from '../../src/replica/data/dataset.js';
import { schemas } from './samples.js';

const heroes = schemas.heroes.parse(JSON.parse(readFileSync(join(SAMPLES_DIR, 'heroes', 'xerronn-heroes-2025-03-10.json'), 'utf8')));
const catalog = heroCatalog(heroes);
const idOf = (name: string) => heroes.find((h) => h.name === name)!.id;
/** The changes of a post as `{hero name: [verdict, ...line texts]}`, for readable expectations. */
function summary(changes: HeroChange[]): Record<string, { verdict: string; lines: [string, string][] }> {
  return Object.fromEntries(
    changes.map((c) => [
      heroes.find((h) => h.id === c.heroId)!.name,
      { verdict: c.verdict, lines: c.lines.map((l) => [l.verdict, l.text] as [string, string]) },
    ]),
  );
}

describe('classifyLine', () => {
  it('reads the direction from "from X to Y" numbers, whatever the units', () => {
    expect(classifyLine('Gamma Ray Gun: Increase damage per round from 5 to 6')).toBe('buff');
    expect(classifyLine('Base Health decreased from 300 to 275')).toBe('nerf');
    expect(classifyLine('Bonus damage increased from 10% to 12%')).toBe('buff');
    expect(classifyLine('Projectile speed changed from 80 m/s to 100 m/s')).toBe('buff');
    expect(classifyLine('Damage falls from 3,400 to 3,100')).toBe('nerf');
    expect(classifyLine('Damage per hit changed from 60/40 to 55/35')).toBe('nerf');
    expect(classifyLine('Damage 60 → 70')).toBe('buff');
    expect(classifyLine('Deals 75 damage per shot (was 70)')).toBe('buff');
  });

  it('turns the direction around for stats where more is worse', () => {
    // Cooldown, energy cost, cast time, wind-up, recovery, spread and fall-off: more is a nerf.
    expect(classifyLine('Cooldown increased from 8s to 10s')).toBe('nerf');
    expect(classifyLine('Cooldown reduced from 12s to 10s')).toBe('buff');
    expect(classifyLine('Energy cost of the ultimate increased from 3400 to 3700')).toBe('nerf');
    expect(classifyLine('Ultimate energy cost reduced from 3400 to 3200')).toBe('buff');
    expect(classifyLine('Cast time lengthened from 0.5s to 0.7s')).toBe('nerf');
    expect(classifyLine('Wind-up shortened from 0.4s to 0.3s')).toBe('buff');
    expect(classifyLine('Recovery after the dash increased from 0.3s to 0.5s')).toBe('nerf');
    expect(classifyLine('Spread increased from 1.5 to 2')).toBe('nerf');
    expect(classifyLine('Damage fall-off reduced')).toBe('buff');
    // Stat names that contain an inverted word but are not one.
    expect(classifyLine('Cooldown reduction increased from 10% to 20%')).toBe('buff');
    expect(classifyLine('Health recovery raised')).toBe('buff');
  });

  it('reads words when there are no numbers: increased, raised, extended, improved vs reduced, lowered, shortened', () => {
    expect(classifyLine('Healing Flower duration extended')).toBe('buff');
    expect(classifyLine('Movement speed raised')).toBe('buff');
    expect(classifyLine('Hit detection improved')).toBe('buff');
    expect(classifyLine('Range lowered')).toBe('nerf');
    expect(classifyLine('Shield duration shortened')).toBe('nerf');
    expect(classifyLine('Omega Hurricane energy cost increased by 5 %')).toBe('nerf');
  });

  it('calls a change without a clear direction "adjusted", and a line that goes both ways too', () => {
    expect(classifyLine('Spirit Rend: Reworked: now refreshes Subtle Step on every hit')).toBe('adjusted');
    expect(classifyLine('Soul Bond: Healing per second adjusted')).toBe('adjusted');
    expect(classifyLine('Gamma Burst no longer knocks back')).toBe('adjusted');
    expect(classifyLine('Damage increased from 20 to 25, but cooldown increased from 6s to 8s')).toBe('adjusted');
    expect(classifyLine('Damage unchanged: from 50 to 50')).toBe('adjusted');
  });

  it('carries the stat of a clause to the next clause that names none', () => {
    expect(classifyLine('Cooldown reduced from 12s to 10s and from 8s to 6s while empowered')).toBe('buff');
    expect(classifyLine('Damage increased from 20 to 25 and cooldown reduced from 6s to 5s')).toBe('buff');
  });

  it('reads an "Ability: change" line after its colon, and ignores the hero\'s ability names', () => {
    // "Harmony Recovery" and "Healing Flower" are names, not stats.
    expect(classifyLine('Harmony Recovery healing increased from 90 to 100', { abilities: ['harmony recovery'] })).toBe('buff');
    expect(classifyLine('Cooldown: reduced from 12s to 10s')).toBe('buff');
    expect(classifyLine('Price of Magic: Damage increased from 10 to 12', { abilities: ['price of magic'] })).toBe('buff');
  });

  it('marks bug fixes as fixed', () => {
    expect(classifyLine("Fixed an issue where Storm's Bolt Rush could pass through walls.")).toBe('fixed');
    expect(classifyLine('Resolved a bug that hid the ultimate charge')).toBe('fixed');
    expect(classifyLine('Anything at all in a bug fix section', { bugFix: true })).toBe('fixed');
    // "Fixed" as an adjective is not a fix.
    expect(classifyLine('Fixed damage increased from 50 to 60')).toBe('buff');
  });
});

describe('heroVerdict', () => {
  it('all buffs, all nerfs, a mix, only fixes, and anything else', () => {
    expect(heroVerdict(['buff', 'buff'])).toBe('buff');
    expect(heroVerdict(['nerf'])).toBe('nerf');
    expect(heroVerdict(['buff', 'nerf'])).toBe('adjusted');
    expect(heroVerdict(['fixed', 'fixed'])).toBe('fixed');
    expect(heroVerdict(['buff', 'adjusted'])).toBe('adjusted');
    expect(heroVerdict(['adjusted'])).toBe('adjusted');
    // A bug fix beside balance changes does not change the balance verdict.
    expect(heroVerdict(['buff', 'fixed'])).toBe('buff');
    expect(heroVerdict(['nerf', 'fixed', 'nerf'])).toBe('nerf');
    expect(heroVerdict([])).toBe('adjusted');
  });
});

/** A balance post in the real posts' layout, written for this test. */
const POST = `Version 20260115 Balance Post

Greetings, Rivals! This round of changes looks at a few heroes who have fallen behind, and one who has pulled ahead.

VANGUARD

Hulk

Bruce Banner
- Gamma Ray Gun: Increase damage per round from 5 to 6
- Base Health increased from 250 to 275

Monster Hulk
- World Breaker: Energy cost of the ultimate increased from 3400 to 3700

Dev Comment: We want Banner to survive long enough to transform. Monster Hulk, on the other hand, has been coming online too often, so his ultimate now takes a little longer to charge.

Thor
- Hammer Throw: Cooldown reduced from 8s to 6s
- Mjolnir Bash: Damage increased from 45 to 50

DUELIST

Hela
- Nightsword Thorn: Damage per round decreased from 100 to 90
- Soul Drainer: Cooldown increased from 12s to 15s

Developer comments: Hela has sat at the top of the Duelist win rates for two seasons. We are lowering her damage and increasing her cooldowns, and will keep watching.

STRATEGIST

Cloak & Dagger

Cloak
- Dark Teleportation: Cooldown reduced from 20s to 16s

Dagger
- Lightforce Dagger: Healing per dagger reduced from 40 to 36

Jeff the Land Shark
- Hide and Seek: Duration extended from 4s to 5s

BUG FIXES

- Fixed an issue where Storm's Bolt Rush could carry her through the floor.
- Fixed an issue where the Author credits overlapped the Helar mural on Yggsgard.
- Psylocke's Psionic Crossbow no longer fires twice on some frames.
- Fixed an issue where Cloak & Dagger's Dagger Storm showed the wrong radius.

Follow Marvel Rivals: X @MarvelRivals | Discord discord.gg/marvelrivals`;

describe('heroChanges', () => {
  it('reads a heading-style post: hero paragraphs with form sub-headings, developer comments left out, bug fixes by hero', () => {
    const got = summary(heroChanges(POST, catalog));
    expect(got).toEqual({
      hulk: {
        // A buff and a nerf in one post: adjusted.
        verdict: 'adjusted',
        lines: [
          ['buff', 'Bruce Banner · Gamma Ray Gun: Increase damage per round from 5 to 6'],
          ['buff', 'Bruce Banner · Base Health increased from 250 to 275'],
          ['nerf', 'Monster Hulk · World Breaker: Energy cost of the ultimate increased from 3400 to 3700'],
        ],
      },
      thor: {
        verdict: 'buff',
        lines: [
          ['buff', 'Hammer Throw: Cooldown reduced from 8s to 6s'],
          ['buff', 'Mjolnir Bash: Damage increased from 45 to 50'],
        ],
      },
      hela: {
        verdict: 'nerf',
        lines: [
          ['nerf', 'Nightsword Thorn: Damage per round decreased from 100 to 90'],
          ['nerf', 'Soul Drainer: Cooldown increased from 12s to 15s'],
        ],
      },
      'cloak & dagger': {
        verdict: 'adjusted',
        lines: [
          ['buff', 'Cloak · Dark Teleportation: Cooldown reduced from 20s to 16s'],
          ['nerf', 'Dagger · Lightforce Dagger: Healing per dagger reduced from 40 to 36'],
          ['fixed', "Fixed an issue where Cloak & Dagger's Dagger Storm showed the wrong radius."],
        ],
      },
      'jeff the land shark': { verdict: 'buff', lines: [['buff', 'Hide and Seek: Duration extended from 4s to 5s']] },
      storm: { verdict: 'fixed', lines: [['fixed', "Fixed an issue where Storm's Bolt Rush could carry her through the floor."]] },
      psylocke: { verdict: 'fixed', lines: [['fixed', "Psylocke's Psionic Crossbow no longer fires twice on some frames."]] },
    });
  });

  it('never takes a developer comment for a change, even one with numbers and hero names in it', () => {
    const changes = heroChanges(POST, catalog);
    const all = changes.flatMap((c) => c.lines.map((l) => l.text)).join('\n');
    expect(all).not.toMatch(/We want|We are lowering|Greetings|Follow Marvel Rivals/);
    // "Thor" inside "Author" and "Hela" inside "Helar" (in a bug fix) are no heroes.
    expect(changes.find((c) => c.heroId === idOf('hela'))!.lines.map((l) => l.verdict)).not.toContain('fixed');
    expect(changes.find((c) => c.heroId === idOf('thor'))!.lines).toHaveLength(2);
  });

  it('reads one-line changes ("Hero: change.") anywhere, with aliases', () => {
    const text = `Balance adjustments
- Hulk: Gamma Burst damage increased from 70 to 75.
- Luna Snow: Ice Arts healing reduced from 60 to 55.
- Storm: Omega Hurricane energy cost increased by 5 %.
- Dr. Strange: Daggers of Denak damage increased from 22 to 24.
- Jeff: Joyful Splash healing increased from 120 to 130.
- Spiderman: Web-Swing cooldown increased from 3s to 4s.
- The Punisher (Duelist): Scourge Grenade cooldown increased from 10s to 12s.
- Iron Fist's Harmony Recovery: healing increased from 90 to 100.
- Ultron: Encephalo-Ray healing increased from 45 to 50.`;
    const got = summary(heroChanges(text, catalog));
    expect(Object.fromEntries(Object.entries(got).map(([name, c]) => [name, c.verdict]))).toEqual({
      hulk: 'buff',
      'luna snow': 'nerf',
      storm: 'nerf',
      'doctor strange': 'buff',
      'jeff the land shark': 'buff',
      'spider-man': 'nerf',
      'the punisher': 'nerf',
      'iron fist': 'buff',
      // Ultron is not in the hero list of the capture: no hero, no entry.
    });
    expect(got.hulk!.lines).toEqual([['buff', 'Hulk: Gamma Burst damage increased from 70 to 75.']]);
  });

  it('reads headings in any case and decoration: "THE THING", "**Thing**", "Rocket (Strategist):"', () => {
    const text = `THE THING
- Base Health increased from 700 to 750

**Thing**
- Yancy Street Charge: Cooldown reduced from 12s to 10s

Rocket (Strategist):
- Repair Mode: Healing per second reduced from 65 to 60`;
    const got = summary(heroChanges(text, catalog));
    expect(got['the thing']).toEqual({
      verdict: 'buff',
      lines: [
        ['buff', 'Base Health increased from 700 to 750'],
        ['buff', 'Yancy Street Charge: Cooldown reduced from 12s to 10s'],
      ],
    });
    expect(got['rocket raccoon']!.verdict).toBe('nerf');
  });

  it('a bug-fix line belongs to the hero it names possessively, or to every hero it names, or to the paragraph it is in', () => {
    expect(heroesNamedIn("Fixed an issue where Luna Snow's Ice Arts did not heal Hulk.", catalog)).toEqual([idOf('luna snow')]);
    expect(heroesNamedIn('Fixed an issue where Hulk and Thor could not be healed.', catalog)).toEqual([idOf('hulk'), idOf('thor')]);
    // An ability that holds another hero's name does not name that hero ("Dagger Storm" is not Storm).
    expect(heroesNamedIn('Fixed an issue where Dagger Storm could heal enemies.', catalog)).toEqual([idOf('cloak & dagger')]);
    expect(heroesNamedIn("Fixed an issue where Thor's Storm Surge hit allies.", catalog)).toEqual([idOf('thor')]);
    // Whole words only.
    expect(heroesNamedIn('Fixed an issue in the Author screen and the Helar mural; Storming the gate.', catalog)).toEqual([]);
    // A letter or digit of any script is part of the word: accented, outside the BMP (a surrogate pair), or a digit.
    expect(heroesNamedIn('Fixed an issue with éHulk, Hulké, 𝐀Thor, Thor𝐀, 2Storm and Storm2.', catalog)).toEqual([]);
    expect(heroesNamedIn('Fixed an issue with xHulk, then with «Hulk» and (Thor).', catalog)).toEqual([idOf('hulk'), idOf('thor')]);
    // Case and spacing do not matter; a name at the very start and end of the text is whole.
    expect(heroesNamedIn('LUNA-SNOW', catalog)).toEqual([idOf('luna snow')]);
    const inParagraph = summary(
      heroChanges("Groot\n- Fixed an issue where Groot's walls blocked Hulk's leap.\n- Ironwood Wall: Health increased from 600 to 650", catalog),
    );
    expect(Object.keys(inParagraph)).toEqual(['groot']);
    expect(inParagraph.groot!.verdict).toBe('buff');
  });

  it('a sub-heading inside a paragraph (an ability) keeps the hero; a new section ends the paragraph', () => {
    const text = `Magneto

Iron Volley
- Damage per orb increased from 65 to 70

New Content
- A new costume for Magneto in the store`;
    const got = summary(heroChanges(text, catalog));
    expect(got.magneto).toEqual({ verdict: 'buff', lines: [['buff', 'Iron Volley · Damage per orb increased from 65 to 70']] });
  });

  it('finds nothing in a post that changed no hero', () => {
    expect(heroChanges('Dev Diary #7\n\nWe talked to the community about maps.\n\n- New map: Klyntar\n- Thorough playtests ahead', catalog)).toEqual([]);
    expect(heroChanges('', catalog)).toEqual([]);
  });

  it('never throws on any text, and every verdict is one of the four', () => {
    const words = fc.constantFrom(
      'Hulk',
      'Thor',
      'Author',
      'Cloak & Dagger',
      'Storm',
      'Dagger Storm',
      'Jeff',
      ':',
      '-',
      '•',
      '\n',
      '\n\n',
      'from',
      'to',
      '5',
      '3,400',
      '12s',
      '%',
      '→',
      '(was 7)',
      'increased',
      'reduced',
      'cooldown',
      'damage',
      'energy cost',
      'Fixed an issue',
      'Bug Fixes',
      'Dev Comment:',
      'We',
      'Vanguard',
      '**',
      '#',
      'no longer',
    );
    const text = fc.oneof(
      fc.string({ maxLength: 400 }),
      fc.array(fc.oneof(words, fc.string({ maxLength: 8 })), { maxLength: 80 }).map((parts) => parts.join(' ')),
    );
    fc.assert(
      fc.property(text, (t) => {
        expect(VERDICTS).toContain(classifyLine(t));
        for (const change of heroChanges(t, catalog)) {
          expect(VERDICTS).toContain(change.verdict);
          expect(change.lines.length).toBeGreaterThan(0);
          for (const line of change.lines) expect(VERDICTS).toContain(line.verdict);
          expect(catalog.ids).toContain(change.heroId);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
