/**
 * HAND-WRITTEN FIXTURES: not captured from the real API.
 *
 * No real response is known for these endpoints (api-samples/README.md), so this module builds them
 * in the raw shapes of api-spec.md, including the real API's habits (numbers as text where the spec
 * says so). Texts are written by hand; numbers come from a seeded generator, so every run gives the
 * same data. Everything returned here is marked `handwritten` in the dataset (see ./dataset.ts).
 */

/** A hero as the replica needs it: id, name, role (taken from the real hero list sample). */
export interface HeroRef {
  id: number;
  name: string;
  role: string;
}

/** Deterministic PRNG (mulberry32) so fixtures are the same on every machine. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const between = (r: () => number, lo: number, hi: number) => lo + (hi - lo) * r();
const intBetween = (r: () => number, lo: number, hi: number) => Math.floor(between(r, lo, hi + 1));

function hms(totalSeconds: number): string {
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = Math.floor(totalSeconds % 60);
  return `${h}h ${m}m ${s}s`;
}

/** Hero statistics (spec: Hero statistics) for every hero given. */
export function heroStats(heroes: HeroRef[]): Record<string, unknown>[] {
  return heroes.map((hero) => {
    const r = rng(hero.id);
    const matches = intBetween(r, 40_000, 900_000);
    const support = hero.role === 'Strategist';
    const tank = hero.role === 'Vanguard';
    return {
      hero_id: hero.id,
      hero_name: hero.name,
      hero_icon: `/heroes/transformations/${hero.name.replace(/[^a-z0-9]+/g, '-')}-headbig-0.webp`,
      matches,
      wins: Math.round(matches * between(r, 0.44, 0.56)),
      k: Number(between(r, support ? 6 : 12, support ? 14 : 26).toFixed(2)),
      d: Number(between(r, 5, 11).toFixed(2)),
      a: Number(between(r, support ? 14 : 4, support ? 26 : 14).toFixed(2)),
      play_time: hms(matches * between(r, 500, 900)),
      total_hero_damage: Math.round(matches * between(r, tank ? 6_000 : 9_000, tank ? 12_000 : 20_000)),
      total_hero_heal: support ? Math.round(matches * between(r, 9_000, 22_000)) : Math.round(matches * between(r, 0, 800)),
      total_damage_taken: Math.round(matches * between(r, tank ? 18_000 : 6_000, tank ? 40_000 : 14_000)),
      session_hit_rate: Number(between(r, 0.28, 0.62).toFixed(4)),
      solo_kill: Number(between(r, 0.4, 3.5).toFixed(2)),
    };
  });
}

const HANDLE_PARTS = ['Nova', 'Quill', 'Vibranium', 'Gamma', 'Asgard', 'Wakanda', 'Kree', 'Skrull', 'Mutant', 'Pym', 'Stark', 'Klyntar', 'Celestial', 'Eternal', 'Nexus', 'Cosmo', 'Hydra', 'Shield', 'Ravager', 'Kraken'];
const HANDLE_ENDS = ['Main', 'Enjoyer', 'GG', 'TTV', 'OTP', 'Diff', '_x', '99', 'Prime', 'Ace'];
const OSES = ['PC', 'PC', 'PC', 'Playstation', 'Xbox'];

/** Leaderboard bodies `{players: [...]}` (spec: Hero leaderboard entry), 25 players each, keyed `<heroId>:<platform>`. */
export function leaderboards(heroes: HeroRef[], platforms: readonly string[]): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const hero of heroes) {
    platforms.forEach((platform, p) => {
      const r = rng(hero.id * 7 + p * 13);
      let score = between(r, 6_200, 7_400);
      const players = Array.from({ length: 25 }, (_, i) => {
        score -= between(r, 4, 40);
        const matches = intBetween(r, 80, 420);
        const wins = Math.round(matches * between(r, 0.52, 0.72));
        const kills = Math.round(matches * between(r, 8, 24));
        const level = Math.max(19, 23 - Math.floor(i / 6));
        return {
          info: {
            name: `${HANDLE_PARTS[intBetween(r, 0, HANDLE_PARTS.length - 1)]}${HANDLE_ENDS[intBetween(r, 0, HANDLE_ENDS.length - 1)]}${i}`,
            cur_head_icon_id: String(30_000_000 + intBetween(r, 1, 60_000)),
            rank_season: {
              rank_game_id: 3,
              level,
              rank_score: score.toFixed(6),
              max_level: level,
              max_rank_score: (score + between(r, 0, 60)).toFixed(6),
              update_time: 1_741_000_000 + intBetween(r, 0, 600_000),
              win_count: wins,
              protect_score: 0,
              diff_score: between(r, -25, 25).toFixed(6),
            },
            login_os: platform === 'pc' ? '1' : '2',
          },
          player_uid: 100_000_000 + intBetween(r, 0, 1_999_999_999),
          matches,
          wins,
          kills,
          deaths: Math.round(matches * between(r, 5, 9)),
          assists: Math.round(matches * between(r, 3, 14)),
          play_time: (matches * between(r, 9, 15)).toFixed(4),
          total_hero_damage: (kills * between(r, 700, 1_100)).toFixed(4),
          total_damage_taken: (matches * between(r, 8_000, 20_000)).toFixed(4),
          total_hero_heal: (hero.role === 'Strategist' ? matches * between(r, 10_000, 24_000) : matches * between(r, 0, 900)).toFixed(4),
          mvps: intBetween(r, 5, Math.max(6, Math.floor(wins / 3))),
          svps: intBetween(r, 5, Math.max(6, Math.floor(matches / 5))),
        };
      });
      out.set(`${hero.id}:${platform}`, { players });
    });
  }
  return out;
}

/** Items (spec: Item): six of each filter type, written by hand. */
export function items(): Record<string, unknown>[] {
  const rows: [string, string, string, string, string | null, string][] = [
    // [type, name, quality, associated hero, description, slug-suffix]
    ['Emote', 'Gamma Flex', 'PURPLE', 'hulk', 'Bruce shows off a little too much gamma.', 'gamma-flex'],
    ['Emote', 'Thwip Salute', 'BLUE', 'spider-man', 'A friendly neighbourhood wave.', 'thwip-salute'],
    ['Emote', 'Mischief Bow', 'BLUE', 'loki', null, 'mischief-bow'],
    ['Emote', 'Wakanda Stance', 'GOLD', 'black panther', 'A king does not kneel.', 'wakanda-stance'],
    ['Emote', 'Shark Nap', 'PURPLE', 'jeff the land shark', 'Jeff takes a well-earned rest.', 'shark-nap'],
    ['Emote', 'Shield Spin', 'BLUE', 'captain america', 'A spin for freedom.', 'shield-spin'],
    ['MVP', 'Hammer Drop', 'GOLD', 'thor', 'Mjolnir lands; the crowd roars.', 'hammer-drop'],
    ['MVP', 'Symbiote Surge', 'GOLD', 'venom', 'We are the most valuable.', 'symbiote-surge'],
    ['MVP', 'Sorcerer Supreme', 'PURPLE', 'doctor strange', 'The Eye of Agamotto opens.', 'sorcerer-supreme'],
    ['MVP', 'Queen of Hel', 'GOLD', 'hela', null, 'queen-of-hel'],
    ['MVP', 'Rocket Science', 'PURPLE', 'rocket raccoon', 'Told you it would work.', 'rocket-science'],
    ['MVP', 'Frozen Encore', 'GOLD', 'luna snow', 'One more song for the crowd.', 'frozen-encore'],
    ['Nameplate', 'Stark Industries', 'BLUE', 'iron man', 'Property of Stark Industries.', 'stark-industries'],
    ['Nameplate', 'Limbo Gate', 'PURPLE', 'magik', 'A door to somewhere worse.', 'limbo-gate'],
    ['Nameplate', 'Acorn Stash', 'BLUE', 'squirrel girl', null, 'acorn-stash'],
    ['Nameplate', 'Star-Lord Mixtape', 'PURPLE', 'star-lord', 'Awesome mix, volume 3.', 'star-lord-mixtape'],
    ['Nameplate', 'Timely Tribute', 'GOLD', '', 'A plate for every Rival.', 'timely-tribute'],
    ['Nameplate', 'Atlantean Crest', 'BLUE', 'namor', 'Imperius Rex!', 'atlantean-crest'],
    ['Spray', 'Smash!', 'BLUE', 'hulk', 'Hulk smash spray.', 'smash'],
    ['Spray', 'Web Doodle', 'BLUE', 'spider-man', null, 'web-doodle'],
    ['Spray', 'Moon Phase', 'PURPLE', 'moon knight', 'Khonshu is watching.', 'moon-phase'],
    ['Spray', 'Psi Blade', 'BLUE', 'psylocke', 'Sharp thoughts.', 'psi-blade'],
    ['Spray', 'Grootings', 'BLUE', 'groot', 'I am Groot.', 'grootings'],
    ['Spray', 'Fantastic Four', 'GOLD', '', 'The first family, together.', 'fantastic-four'],
  ];
  return rows.map(([type, name, quality, hero, description, slug], i) => ({
    id: String(31_000_000 + (i + 1) * 101),
    name,
    quality,
    type,
    icon: `/items/${type.toLowerCase()}/${slug}.png`,
    slug,
    description,
    associated_hero: hero,
  }));
}

/** Achievements: list elements (spec: Achievement list element) and detail bodies, written by hand. */
export function achievements(): { list: Record<string, unknown>[]; details: Map<string, Record<string, unknown>> } {
  const rows: [string, string, string, number, string][] = [
    // [category, name, mission, points, rarity]
    ['hulk', 'Puny Banner', 'Knock back 50 enemies as Bruce Banner.', 10, 'Common'],
    ['hulk', 'Strongest There Is', 'Deal 100,000 damage as Hero Hulk.', 20, 'Rare'],
    ['spider-man', 'Friendly Neighbourhood', 'Save 20 allies from lethal damage as Spider-Man.', 10, 'Common'],
    ['spider-man', 'Spider-Tracer Pro', 'Tag 300 enemies with Spider-Tracers.', 20, 'Rare'],
    ['loki', 'God of Stories', 'Copy 10 different enemy ultimates as Loki.', 30, 'Epic'],
    ['loki', 'Glorious Purpose', 'Win 25 matches as Loki.', 20, 'Rare'],
    ['storm', 'Eye of the Storm', 'Hit 5 enemies with one Omega Hurricane.', 30, 'Epic'],
    ['storm', 'Weather Report', 'Grant 10,000 bonus damage with Weather Control.', 10, 'Common'],
    ['the punisher', 'Judge, Jury', 'Eliminate 500 enemies as the Punisher.', 20, 'Rare'],
    ['the punisher', 'Final Verdict', 'Score a triple elimination with Final Judgement.', 30, 'Epic'],
    ['groot', 'I Am Groot', 'Block 50,000 damage with Groot walls.', 20, 'Rare'],
    ['groot', 'Branching Out', 'Build 200 walls as Groot.', 10, 'Common'],
    ['mantis', 'Nature\'s Favour', 'Heal 200,000 health as Mantis.', 20, 'Rare'],
    ['mantis', 'Soul Resurgence', 'Save 4 allies with one Soul Resurgence.', 30, 'Epic'],
    ['thor', 'Worthy', 'Win 50 matches as Thor.', 30, 'Epic'],
    ['thor', 'God of Thunder', 'Stun 300 enemies as Thor.', 10, 'Common'],
    ['Chronoverse Saga', 'Time Traveller', 'Complete every Chronoverse Saga chapter.', 30, 'Legendary'],
    ['Chronoverse Saga', 'First Steps', 'Complete the first Chronoverse Saga chapter.', 10, 'Common'],
    ['Galacta\'s Quest', 'Explorer', 'Play a match on every map.', 20, 'Rare'],
    ['Galacta\'s Quest', 'Team Player', 'Win 100 matches with a friend.', 30, 'Epic'],
  ];
  const list: Record<string, unknown>[] = [];
  const details = new Map<string, Record<string, unknown>>();
  rows.forEach(([category, name, mission, points, rarity], i) => {
    const id = String(10_001 + i);
    const icon = `/achievements/${id}.png`;
    list.push({ id, name, category, points, icon });
    details.set(id, { name, mission, points: String(points), category, icon, rarity });
  });
  return { list, details };
}

/** Battle passes of seasons 1 and 1.5 (spec: Battle pass), written by hand. */
export function battlePasses(): Map<string, Record<string, unknown>> {
  const pass = (season: number, seasonName: string, heroes: string[]) => ({
    season,
    season_name: seasonName,
    items: heroes.flatMap((hero, i) => [
      { name: `${hero} costume: ${seasonName}`, image: `/battlepass/${String(season).replace('.', '_')}/costume-${i + 1}.png`, cost: i === 0 ? 'Unlocked with the Luxury Pass' : `Reach chapter ${i + 2}`, isLuxury: true },
      { name: `${hero} spray`, image: `/battlepass/${String(season).replace('.', '_')}/spray-${i + 1}.png`, cost: `Reach chapter ${i + 1}`, isLuxury: false },
    ]),
  });
  return new Map([
    ['1', pass(1, 'Eternal Night Falls', ['Luna Snow', 'Peni Parker', 'Iron Man', 'Magik', 'Loki'])],
    ['1.5', pass(1.5, 'Eternal Night Falls, Part Two', ['Invisible Woman', 'Mister Fantastic', 'Moon Knight', 'Squirrel Girl'])],
  ]);
}

/** A UTC date as the API writes post dates: YYYY/MM/DD. */
function slashDate(d: Date): string {
  return `${d.getUTCFullYear()}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** A hand-written post body (spec: Post). */
interface PostSeed {
  id: string;
  title: string;
  date: string;
  overview: string;
  sections: [string, string[]][];
}

const SOCIAL = 'Follow us: X @MarvelRivals | YouTube @MarvelRivals | Discord discord.gg/marvelrivals';

function post(seed: PostSeed, kind: string): Record<string, unknown> {
  const body = seed.sections.map(([heading, lines]) => `${heading}\n${lines.map((l) => `- ${l}`).join('\n')}`).join('\n\n');
  return {
    id: seed.id,
    title: seed.title,
    date: seed.date,
    overview: seed.overview,
    fullContent: `${seed.overview}\n\n${body}\n\n${SOCIAL}`,
    imagePath: `/${kind}/${seed.id}.jpg`,
  };
}

/** Versions with both a patch note and a game version: date-based ids, newest first. */
const VERSIONS = ['20251113', '20251016', '20250911', '20250814', '20250710', '20250612', '20250515', '20250410'];

/** 12 patch notes, newest first; the first 8 are the patch notes of the 8 game versions. */
export function patchNotes(): Record<string, unknown>[] {
  const ids = [...VERSIONS, '20250320', '20250227', '20250130', '20250110'];
  const topics = [
    ['Season 5 begins', 'A new season, a new hero and a reworked Convergence map.'],
    ['Halloween event', 'Spooky costumes, a limited-time mode and bug fixes.'],
    ['Season 4.5 mid-season update', 'Balance changes for Vanguards and a new Domination map.'],
    ['Season 4 launch', 'Two new heroes join the roster, plus competitive changes.'],
    ['Summer Splash returns', 'Jeff\'s event mode is back with new rewards.'],
    ['Season 3.5 update', 'Team-Up abilities revised and new achievements.'],
    ['Season 3 launch', 'New map in Klyntar and ranked reset.'],
    ['Season 2.5 update', 'Ultron joins as a Strategist; matchmaking improvements.'],
    ['Season 2 launch', 'Hellfire Gala: Emma Frost arrives.'],
    ['Season 1.5 update', 'The Thing and Human Torch join; Central Park opens.'],
    ['Spring festival', 'Clash of Dancing Lions returns with lunar rewards.'],
    ['Season 1 launch', 'Eternal Night Falls: the Fantastic Four arrive.'],
  ];
  return ids.map((id, i) => {
    const [title, overview] = topics[i]!;
    return post(
      {
        id,
        title: `Version ${id} Patch Notes: ${title}`,
        date: `${id.slice(0, 4)}/${id.slice(4, 6)}/${id.slice(6, 8)}`,
        overview: overview!,
        sections: [
          ['New content', [`${title}.`, 'New costumes in the store for a limited time.', 'New achievements to unlock.']],
          ['Balance adjustments', ['Hulk: Gamma Burst damage increased from 70 to 75.', 'Luna Snow: Ice Arts healing reduced from 60 to 55.', 'Storm: Omega Hurricane energy cost increased by 5 %.']],
          ['Bug fixes', ['Fixed an issue where some abilities could pass through walls.', 'Fixed audio cutting out on Yggsgard maps.', 'Improved stability on all platforms.']],
        ],
      },
      'patch-notes',
    );
  });
}

/** 8 balance posts, newest first. */
export function balances(): Record<string, unknown>[] {
  const heroes = ['Hulk', 'Magneto', 'Luna Snow', 'Black Panther', 'Storm', 'Venom', 'Hela', 'Rocket Raccoon'];
  return heroes.map((hero, i) => {
    const ymd = slashDate(new Date(Date.UTC(2025, 10 - i, 12)));
    return post(
      {
        id: `balance-${ymd.replace(/\//g, '')}`,
        title: `Balance Post: ${hero} and friends`,
        date: ymd,
        overview: `This update focuses on ${hero} and brings smaller changes to several other heroes.`,
        sections: [
          [hero, ['Primary attack damage adjusted by 5 %.', 'Ultimate energy cost reduced from 3400 to 3200.']],
          ['Other heroes', ['Mantis: Healing Flower duration increased from 4 s to 5 s.', 'Iron Man: Unibeam cooldown increased from 10 s to 12 s.']],
          ['Developer comments', [`We want ${hero} to feel strong in more team compositions without dominating any one of them.`]],
        ],
      },
      'balances',
    );
  });
}

/** 6 dev diaries, newest first; ids are sequence numbers written as text. */
export function devDiaries(): Record<string, unknown>[] {
  const topics = [
    ['Designing Season 5', 'How the team chose the new hero and reshaped a classic map.'],
    ['Competitive integrity', 'What we changed in ranked matchmaking and why.'],
    ['Making of a map', 'From concept art to a playable Domination map in eight months.'],
    ['Team-Up abilities', 'Why Team-Ups are changing and what comes next.'],
    ['Audio in Rivals', 'How every hero got a voice that carries across a team fight.'],
    ['A year of Rivals', 'A look back at the first seasons with the community.'],
  ];
  return topics.map(([title, overview], i) => {
    const ymd = slashDate(new Date(Date.UTC(2025, 10 - i * 2, 3)));
    return post(
      {
        id: String(6 - i),
        title: `Dev Diary #${6 - i}: ${title}`,
        date: ymd,
        overview: overview!,
        sections: [
          ['Where we started', ['We read every piece of feedback from the last season.', 'Player data showed where matches felt unfair.']],
          ['What we built', ['Prototypes went through weekly playtests.', 'Artists and designers worked on the same build every day.']],
          ['What comes next', ['More changes arrive next season.', 'Tell us what you think on our Discord.']],
        ],
      },
      'dev-diaries',
    );
  });
}

/** 8 game versions, newest first; each `patchNotesUrl` names a patch note of {@link patchNotes}. */
export function gameVersions(): Record<string, unknown>[] {
  return VERSIONS.map((version) => {
    const d = new Date(Date.UTC(Number(version.slice(0, 4)), Number(version.slice(4, 6)) - 1, Number(version.slice(6, 8))));
    return {
      version: Number(version),
      release: d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }),
      patchNotesUrl: `/api/v1/patch-note/${version}`,
    };
  });
}
