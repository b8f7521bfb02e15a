/**
 * HAND-WRITTEN FIXTURES, not captured from the real API: no real response is known for these endpoints.
 * Raw api-spec.md shapes with the real API's habits; numbers from a seeded generator, so every run matches.
 */

import { seasonFromRankGame } from '../../game/seasons.js';

export type Json = Record<string, unknown>;
/** `v` as an object of the API's JSON, `{}` when it is none. */
export const asRecord = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
/** `v` as a list of objects, `[]` when it is none. */
export const asArray = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);

/** A season listing entry as the replica serves it: a number (what clients read), or an object some forms show. */
export type ListedSeason = number | { season: number; name?: string; starts_at?: string; ends_at?: string };

export const listedNumber = (s: ListedSeason): number => (typeof s === 'number' ? s : s.season);

/** Every season from 0 to the newest ranked season any captured profile lists (its rank game's key), as numbers. */
export function seasonListing(profiles: Iterable<Json>): ListedSeason[] {
  let newest = 0;
  for (const profile of profiles) {
    for (const [key, entry] of Object.entries(asRecord(asRecord(asRecord(profile.player).info).rank_game_season))) {
      const season = seasonFromRankGame(Number(asRecord(entry).rank_game_id) || null, key);
      if (season && season.index > newest) newest = season.index;
    }
  }
  return Array.from({ length: newest + 1 }, (_, i) => (i === 0 ? 0 : 1 + (i - 1) / 2));
}

/** From the real hero list sample. */
export interface HeroRef {
  id: number;
  name: string;
  role: string;
}

/** Deterministic PRNG (mulberry32) so fixtures are the same on every machine. */
export function rng(seed: number): () => number {
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

/** Seconds as the API writes play time: "5h 10m 11s". */
export function hms(totalSeconds: number): string {
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = Math.floor(totalSeconds % 60);
  return `${h}h ${m}m ${s}s`;
}

/** Spec: Hero statistics. */
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

const HANDLE_PARTS = [
  'Nova',
  'Quill',
  'Vibranium',
  'Gamma',
  'Asgard',
  'Wakanda',
  'Kree',
  'Skrull',
  'Mutant',
  'Pym',
  'Stark',
  'Klyntar',
  'Celestial',
  'Eternal',
  'Nexus',
  'Cosmo',
  'Hydra',
  'Shield',
  'Ravager',
  'Kraken',
];
const HANDLE_ENDS = ['Main', 'Enjoyer', 'GG', 'TTV', 'OTP', 'Diff', '_x', '99', 'Prime', 'Ace'];

/** A made-up player name, "NovaMain7": two parts drawn by `r`, and `i` so that names on one list never repeat. */
export function handleOf(r: () => number, i: number): string {
  return `${HANDLE_PARTS[intBetween(r, 0, HANDLE_PARTS.length - 1)]}${HANDLE_ENDS[intBetween(r, 0, HANDLE_ENDS.length - 1)]}${i}`;
}

/** Spec: Hero leaderboard entry; keyed `<heroId>:<platform>`. */
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
            name: handleOf(r, i),
            cur_head_icon_id: String(30_000_000 + intBetween(r, 1, 60_000)),
            rank_season: {
              // Season 3 (index 5), the newest season the captures hold: what the replica lists as current.
              rank_game_id: 6,
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

/** Spec: Item. */
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

/** Spec: Achievement list element, and detail bodies. */
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
    ['mantis', "Nature's Favour", 'Heal 200,000 health as Mantis.', 20, 'Rare'],
    ['mantis', 'Soul Resurgence', 'Save 4 allies with one Soul Resurgence.', 30, 'Epic'],
    ['thor', 'Worthy', 'Win 50 matches as Thor.', 30, 'Epic'],
    ['thor', 'God of Thunder', 'Stun 300 enemies as Thor.', 10, 'Common'],
    ['Chronoverse Saga', 'Time Traveller', 'Complete every Chronoverse Saga chapter.', 30, 'Legendary'],
    ['Chronoverse Saga', 'First Steps', 'Complete the first Chronoverse Saga chapter.', 10, 'Common'],
    ["Galacta's Quest", 'Explorer', 'Play a match on every map.', 20, 'Rare'],
    ["Galacta's Quest", 'Team Player', 'Win 100 matches with a friend.', 30, 'Epic'],
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

/** Spec: Battle pass. */
export function battlePasses(): Map<string, Record<string, unknown>> {
  const pass = (season: number, seasonName: string, heroes: string[]) => ({
    season,
    season_name: seasonName,
    items: heroes.flatMap((hero, i) => [
      {
        name: `${hero} costume: ${seasonName}`,
        image: `/battlepass/${String(season).replace('.', '_')}/costume-${i + 1}.png`,
        cost: i === 0 ? 'Unlocked with the Luxury Pass' : `Reach chapter ${i + 2}`,
        isLuxury: true,
      },
      { name: `${hero} spray`, image: `/battlepass/${String(season).replace('.', '_')}/spray-${i + 1}.png`, cost: `Reach chapter ${i + 1}`, isLuxury: false },
    ]),
  });
  return new Map([
    ['1', pass(1, 'Eternal Night Falls', ['Luna Snow', 'Peni Parker', 'Iron Man', 'Magik', 'Loki'])],
    ['1.5', pass(1.5, 'Eternal Night Falls, Part Two', ['Invisible Woman', 'Mister Fantastic', 'Moon Knight', 'Squirrel Girl'])],
  ]);
}

/** As the API writes post dates: YYYY/MM/DD, UTC. */
function slashDate(d: Date): string {
  return `${d.getUTCFullYear()}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** Spec: Post. */
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

/** In the real posts' layout (role and hero headings, bullets, "Dev Comment:", "Bug Fixes"); words and numbers invented. */
function writtenPost(seed: Omit<PostSeed, 'sections'>, body: string, kind: string): Record<string, unknown> {
  return {
    id: seed.id,
    title: seed.title,
    date: seed.date,
    overview: seed.overview,
    fullContent: `${seed.overview}\n\n${body.trim()}\n\n${SOCIAL}`,
    imagePath: `/${kind}/${seed.id}.jpg`,
  };
}

/** Newest first; each has a patch note and a game version. */
const VERSIONS = ['20251113', '20251016', '20250911', '20250814', '20250710', '20250612', '20250515', '20250410'];

/** One per patch note, newest first, in both layouts the real posts use. */
const PATCH_BALANCE: { balance: string; fixes: string[] }[] = [
  {
    balance: `Balance adjustments
- Hulk: Gamma Burst damage increased from 70 to 75.
- Luna Snow: Ice Arts healing reduced from 60 to 55.
- Storm: Omega Hurricane energy cost increased by 5 %.`,
    fixes: ["Fixed an issue where Jeff the Land Shark's Hide and Seek hid him from his allies' healing."],
  },
  {
    balance: `Hero adjustments

Vanguard

Thor
- Hammer Throw: Damage increased from 60 to 65
- Thorforce: Maximum stacks increased from 3 to 4

Strategist

Cloak & Dagger
- Terror Cape: Cooldown increased from 12s to 14s
- Light's Embrace: Healing per second reduced from 70 to 65

Dev Comment: Cloak & Dagger recovered too quickly from a lost fight. Her tools now ask for more timing.`,
    fixes: ["Fixed an issue where Thor's Storm Surge could hit enemies standing behind him."],
  },
  {
    balance: `Vanguard adjustments

Captain America
- Base Health increased from 650 to 675
- Leading Dash: Cooldown reduced from 6s to 5s

Venom
- Cellular Corrosion: Damage increased from 40 to 45
- Frenzied Arrival: Cooldown increased from 12s to 14s

The Thing
- Stone Haymaker: Damage increased from 60 to 65

Groot
- Thornlash Wall: Health decreased from 700 to 650
- Ironwood Wall: Duration shortened from 10s to 8s

Dev Comment: We looked at how long Vanguard fights last on the new Domination map and moved each of them toward the middle.`,
    fixes: ["Fixed an issue where Venom's Venom Swing could attach to invisible surfaces."],
  },
  {
    balance: `Balance adjustments
- Wolverine: Berserker Rage cooldown reduced from 20s to 18s.
- Iron Fist: Harmony Recovery healing increased from 90 to 100.
- Black Widow: Red Room Rifle damage reduced from 100 to 90.`,
    fixes: ["Fixed an issue where Wolverine's Feral Leap could miss a target right in front of him."],
  },
  {
    balance: `Balance adjustments
- Jeff the Land Shark: Joyful Splash healing increased from 120 to 130.
- Spider-Man: Web-Swing cooldown increased from 3s to 4s.`,
    fixes: [],
  },
  {
    balance: `Hero adjustments

Duelist

Mister Fantastic
- Reflexive Rubber: Duration increased from 3s to 4s
- Stretch Punch: Damage increased from 45 to 50

Strategist

Invisible Woman
- Psionic Strike: Cooldown reduced from 8s to 6s; Psionic Invisibility: energy cost increased from 3000 to 3300

Dev Comment: Sue should spend her invisibility with more care, and have more to do while she waits for it.`,
    fixes: ["Fixed an issue where Mister Fantastic's Brainiac Bounce could be interrupted by allies."],
  },
  {
    balance: `Balance adjustments
- Human Torch: Flaming Meteor damage increased from 150 to 160.
- Hawkeye: Hypersonic Arrow cooldown reduced from 10s to 8s.`,
    fixes: ["Fixed an issue where Human Torch's Pyro-Prison walls did not block vision."],
  },
  {
    balance: `Hero adjustments

Strategist

Adam Warlock
- Karmic Revival: Cooldown increased from 70s to 80s
- Base Health decreased from 250 to 225

Dev Comment: With a Strategist joining the roster, we want fewer fights decided by a second life.

Mantis
- Nature's Favor: Movement speed bonus increased from 10% to 15%`,
    fixes: [],
  },
  {
    balance: `Balance adjustments
- Magneto: Iron Volley damage reduced from 70 to 65.
- Psylocke: Psi-Blade Dash cooldown reduced from 12s to 10s.`,
    fixes: ["Fixed an issue where Magneto's Metal Bulwark could be cast on enemies."],
  },
  {
    balance: `Balance adjustments
- Dr. Strange: Daggers of Denak damage increased from 22 to 24.
- Star-Lord: Element Guns damage reduced from 7 to 6.`,
    fixes: ["Fixed an issue where The Thing's Stone Haymaker could be cancelled by knockback."],
  },
  {
    balance: `Balance adjustments
- The Punisher: Scourge Grenade cooldown increased from 10s to 12s.
- Peni Parker: Arachno-Mine damage increased from 40 to 45.`,
    fixes: [],
  },
  {
    balance: `Hero adjustments

Duelist

Moon Knight
- Moonlight Hook: Cooldown reduced from 12s to 10s

Squirrel Girl
- Burst Acorn: Explosion radius increased from 5m to 5.5m
- Base Health reduced from 275 to 250

Namor: Horn of Proteus cooldown increased from 15s to 18s.`,
    fixes: [],
  },
];

/** Newest first; the first are those of the game versions. */
export function patchNotes(): Record<string, unknown>[] {
  const ids = [...VERSIONS, '20250320', '20250227', '20250130', '20250110'];
  const topics = [
    ['Season 5 begins', 'A new season, a new hero and a reworked Convergence map.'],
    ['Halloween event', 'Spooky costumes, a limited-time mode and bug fixes.'],
    ['Season 4.5 mid-season update', 'Balance changes for Vanguards and a new Domination map.'],
    ['Season 4 launch', 'Two new heroes join the roster, plus competitive changes.'],
    ['Summer Splash returns', "Jeff's event mode is back with new rewards."],
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
    const { balance, fixes } = PATCH_BALANCE[i]!;
    const bullets = (lines: string[]) => lines.map((l) => `- ${l}`).join('\n');
    const body = [
      `New content\n${bullets([`${title}.`, 'New costumes in the store for a limited time.', 'New achievements to unlock.'])}`,
      balance,
      `Bug fixes\n${bullets(['Fixed an issue where some abilities could pass through walls.', ...fixes, 'Fixed audio cutting out on Yggsgard maps.', 'Improved stability on all platforms.'])}`,
    ].join('\n\n');
    return writtenPost(
      { id, title: `Version ${id} Patch Notes: ${title}`, date: `${id.slice(0, 4)}/${id.slice(4, 6)}/${id.slice(6, 8)}`, overview: overview! },
      body,
      'patch-notes',
    );
  });
}

/** One per focus hero of {@link balances}, newest first. */
const BALANCE_BODIES: string[] = [
  `Hero Balance

Vanguard

Hulk

Bruce Banner
- Gamma Ray Gun: Increase damage per round from 5 to 6
- Base Health increased from 275 to 300

Hero Hulk
- Gamma Burst: Damage increased from 70 to 75
- Indestructible Guard: Cooldown reduced from 15s to 12s

Dev Comment: Bruce Banner had too little time to charge his transformation before a fight reached him. These changes give Hulk more room early in a team fight.

Peni Parker
- Cyber-Web Snare: Cooldown increased from 8s to 10s
- Spider-Sweeper: Duration shortened from 12s to 10s

Duelist

Star-Lord
- Element Guns: Damage per round reduced from 7 to 6
- Rocket Propulsion: Movement speed increased from 12 m/s to 14 m/s

Dev Comment: We want Star-Lord to keep his freedom of movement while asking a little more aim of him.

Strategist

Mantis
- Healing Flower: Duration increased from 4s to 5s

Bug Fixes
- Fixed an issue where Hulk's Incredible Leap could pass through some walls.
- Fixed an issue where Star-Lord's Galactic Legend could lock on to targets behind cover.`,

  `Hero Balance

Vanguard

Magneto
- Metal Bulwark: Shield value increased from 350 to 400
- Iron Volley: Damage per orb increased from 65 to 70
- Mag-Cannon: Energy cost of the ultimate reduced from 3400 to 3200

Dev Comment: Magneto should feel like the anchor of a slow, steady team; the larger shield lets him hold a position longer.

The Thing
- Base Health decreased from 750 to 700
- Yancy Street Charge: Cooldown increased from 10s to 12s

Duelist

The Punisher
- Adjudication: Spread increased from 1.5 to 2
- Culling Turret: Duration increased from 8s to 10s

Strategist

Cloak & Dagger
- Lightforce Dagger: Healing per dagger increased from 40 to 45
- Dark Teleportation: Cooldown reduced from 20s to 18s

Bug Fixes
- Fixed an issue where Magneto's Metallic Curtain did not block some projectiles.
- Fixed an issue where Cloak & Dagger's Dagger Storm could heal enemies.`,

  `Hero Balance

Strategist

Luna Snow
- Ice Arts: Healing per hit reduced from 60 to 55
- Fate of Both Worlds: Cooldown increased from 15s to 18s
- Base Health decreased from 275 to 250

Dev Comment: Luna Snow has healed more than any other Strategist for two seasons. We are taking back some of that power while keeping what makes her fun.

Jeff the Land Shark
- Joyful Splash: Healing increased from 130 to 140
- Hide and Seek: Duration extended from 4s to 5s

Duelist

Spider-Man
- Web-Cluster: Damage increased from 25 to 30
- Get Over Here!: Cooldown reduced from 10s to 8s

Hela
- Fixed an issue where Hela's Astral Flock could end early on uneven ground.`,

  `Hero Balance

Duelist

Black Panther
- Vibranium Claws: Damage increased from 40 to 45
- Spear Toss: Cooldown increased from 8s to 10s
- Spirit Rend: Reworked: now refreshes Subtle Step on every hit

Dev Comment: Black Panther's dives should be decided by how well he places his spears, not by how often he can reset.

Psylocke
- Psionic Crossbow: Damage per shot reduced from 25 to 23
- Psychic Stealth: Duration shortened from 2.5s to 2s

Vanguard

Captain America
- Base Health increased from 650 to 675
- Living Legend: Energy cost of the ultimate reduced from 3400 to 3100

Strategist

Adam Warlock
- Soul Bond: Healing per second adjusted

Bug Fixes
- Fixed an issue where Black Panther's Spinning Kick could hit enemies through walls.
- Fixed a display issue on the Author and Artist credits screen.`,

  `Hero Balance

Duelist

Storm
- Wind Blade: Damage increased from 30 to 35
- Bolt Rush: Cooldown reduced from 8s to 6s
- Weather Control: Bonus damage increased from 10% to 12%

Dev Comment: Storm sat at the bottom of the Duelist win rates for a while; she now gets stronger in both kinds of weather.

Moon Knight
- Ancient Ankh: Cooldown increased from 12s to 14s
- Moon Blade: Damage reduced from 60 to 55

Iron Man
- Unibeam: Cooldown increased from 10s to 12s
- Repulsor Blast: Damage increased from 20 to 22

Vanguard

Groot
- Ironwood Wall: Health increased from 600 to 650

Bug Fixes
- Fixed an issue where Storm's Bolt Rush could carry her through the floor on Tokyo 2099 maps.
- Fixed an issue where Groot could not place walls on some slopes.`,

  `Hero Balance

Vanguard

Venom
- Symbiotic Resilience: Bonus health reduced from 200 to 175
- Venom Swing: Cooldown increased from 6s to 8s

Dev Comment: Venom could dive in and leave again before anyone could answer. A longer cooldown on his swing gives the other team a window.

Doctor Strange
- Shield of the Seraphim: Shield value increased from 1000 to 1100
- Maelstrom of Madness: Energy cost reduced from 3400 to 3200

Duelist

Winter Soldier
- Roterstern: Damage reduced from 120 to 110

Strategist

Rocket Raccoon
- Repair Mode: Healing per second increased from 60 to 65`,

  `Hero Balance

Duelist

Hela
- Nightsword Thorn: Damage per round reduced from 100 to 95
- Astral Flock: Duration increased from 3s to 4s
- Soul Drainer: Cooldown increased from 12s to 15s

Dev Comment: Hela keeps her reach, but a missed shot should cost her more than it does today.

Namor
- Aquatic Dominion: Turret damage increased from 20 to 24

Magik
- Umbral Incursion: Cooldown reduced from 8s to 7s
- Base Health increased from 250 to 275

Strategist

Invisible Woman
- Psionic Vortex: Duration shortened from 5s to 4s

Bug Fixes
- Fixed an issue where Namor's turrets could attack through walls.`,

  `Hero Balance

Strategist

Rocket Raccoon
- Bombard Mode: Damage increased from 20 to 23
- Jetpack Dash: Cooldown increased from 4s to 5s

Dev Comment: Rocket should defend himself better, at the price of a little mobility.

Loki
- Regeneration Domain: Healing reduced from 40 to 35

Duelist

Scarlet Witch
- Chaos Control: Damage per second increased from 100 to 110
- Mystic Projection: Speed increased from 10 m/s to 12 m/s

Squirrel Girl
- Burst Acorn: Damage reduced from 70 to 65

Bug Fixes
- Fixed an issue where Loki's Doppelganger could copy abilities it should not.
- Fixed an issue where Squirrel Girl's Unbeatable Squirrel Tsunami ended early.`,
];

/** Newest first. */
export function balances(): Record<string, unknown>[] {
  const heroes = ['Hulk', 'Magneto', 'Luna Snow', 'Black Panther', 'Storm', 'Venom', 'Hela', 'Rocket Raccoon'];
  return heroes.map((hero, i) => {
    const ymd = slashDate(new Date(Date.UTC(2025, 10 - i, 12)));
    return writtenPost(
      {
        id: `balance-${ymd.replace(/\//g, '')}`,
        title: `Balance Post: ${hero} and friends`,
        date: ymd,
        overview: `This update focuses on ${hero} and brings smaller changes to several other heroes.`,
      },
      BALANCE_BODIES[i]!,
      'balances',
    );
  });
}

/** Newest first; ids are sequence numbers as text. */
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

/** Newest first; each `patchNotesUrl` names a patch note of {@link patchNotes}. */
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
