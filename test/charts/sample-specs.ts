/**
 * Chart specs for the chart tests and scripts, built from the real player profiles in api-samples
 * through the project's own parser (src/api/schemas.ts) and game helpers (src/game/), plus a few
 * hand-written specs where no sample has the data (hero meta statistics, a long multi-season climb).
 * Everything here is deterministic: the golden images depend on it.
 */
import { readFileSync } from 'node:fs';
import { createCanvas } from '@napi-rs/canvas';
import { join } from 'node:path';
import { createImageResolver } from '../../src/api/images.js';
import { createSchemas, type PlayerProfile } from '../../src/api/schemas.js';
import type {
  ChartSpec,
  CompareRankChart,
  LadderRankChart,
  HeroPerformanceChart,
  MetaScatterChart,
  LadderCard,
  CardTone,
  TableCard,
  MatchCard,
  ProfileCard,
  RankHistoryChart,
  RankPoint,
} from '../../src/charts/specs.js';
import { heroSummary, rankSummary, seasonRanks } from '../../src/game/profile.js';
import { trIn } from '../../src/i18n/index.js';
import { seasonFromIndex } from '../../src/game/seasons.js';
import { SAMPLES_DIR } from '../../src/replica/data/dataset.js';
import { heroName } from '../../src/i18n/names.js';
import { isRankedMode } from '../../src/game/modes.js';

const schemas = createSchemas(createImageResolver('https://img.test/rivals'));

/** A real profile from the vendored samples (src/replica/data/samples/player), parsed. */
export function sampleProfile(file: string): PlayerProfile {
  return schemas.player.parse(JSON.parse(readFileSync(join(SAMPLES_DIR, 'player', file), 'utf8')));
}

/** Hero roles by hero id, from the real hero list sample. */
function heroRoles(): Map<string, string | null> {
  const heroes = schemas.heroes.parse(JSON.parse(readFileSync(join(SAMPLES_DIR, 'heroes', 'xerronn-heroes-2025-03-10.json'), 'utf8')));
  return new Map(heroes.map((h) => [h.id, h.role]));
}

/**
 * The rank points a profile holds for its latest season: its rank history and its recent ranked
 * matches' new scores, each time once, oldest first.
 */
function latestSeasonPoints(p: PlayerProfile, seasonIndex: number): RankPoint[] {
  const byTime = new Map<number, number>();
  for (const r of p.rank_history) if (r.time !== null && r.total_score !== null) byTime.set(r.time, r.total_score);
  for (const m of p.recent_matches) {
    if (!isRankedMode(m.game_mode_id) || m.time === null || m.player.new_score === null) continue;
    if (seasonFromIndex(m.season)?.index !== seasonIndex) continue;
    byTime.set(m.time, m.player.new_score);
  }
  return [...byTime].map(([time, score]) => ({ time, score })).sort((a, b) => a.time - b.time);
}

/**
 * A rank history of a real profile: the latest season from its rank history and ranked matches,
 * each earlier season as its final score at its last update, the current tier and score marked.
 */
export function rankHistoryFromProfile(p: PlayerProfile): RankHistoryChart {
  const seasons = seasonRanks(p);
  const latest = seasons.at(-1);
  const summary = rankSummary(p);
  return {
    kind: 'rank-history',
    title: `${p.name} · rank history`,
    seasons: seasons.map((s) => ({
      name: s.season.name,
      points: s === latest ? latestSeasonPoints(p, s.season.index) : s.updatedAt !== null && s.score !== null ? [{ time: s.updatedAt, score: s.score }] : [],
    })),
    ...(summary.tier !== null && summary.score !== null ? { current: { tier: summary.tier, score: summary.score } } : {}),
  };
}

/** A real profile's heroes: play time, win rate and KDA ((kills + assists) / deaths), roles from the hero list. */
export function heroPerformanceFromProfile(p: PlayerProfile): HeroPerformanceChart {
  const roles = heroRoles();
  return {
    kind: 'hero-performance',
    title: `${p.name} · heroes`,
    heroes: heroSummary(p).heroes.map((h) => ({
      name: heroName(h.hero_name) ?? h.hero_name ?? '?',
      role: (h.hero_id && roles.get(h.hero_id)) ?? null,
      playTimeSeconds: h.play_time,
      winRate: h.matches > 0 ? h.wins / h.matches : null,
      kda: h.deaths > 0 ? (h.kills + h.assists) / h.deaths : null,
    })),
  };
}

/** Two real profiles' latest-season rank points, compared. */
export function compareFromProfiles(a: PlayerProfile, b: PlayerProfile): CompareRankChart {
  const points = (p: PlayerProfile) => latestSeasonPoints(p, seasonRanks(p).at(-1)?.season.index ?? -1);
  return {
    kind: 'compare-rank',
    title: `${a.name} vs ${b.name}`,
    players: [
      { name: a.name, points: points(a) },
      { name: b.name, points: points(b) },
    ],
  };
}

/** Real profiles' latest-season rank points as the top of a server's ladder. */
export function ladderFromProfiles(...profiles: PlayerProfile[]): LadderRankChart {
  return {
    kind: 'ladder-rank',
    title: 'Server ladder · top 3',
    players: profiles.map((p) => ({ name: p.name, points: latestSeasonPoints(p, seasonRanks(p).at(-1)?.season.index ?? -1) })),
  };
}

/** A small deterministic pseudo-random sequence (mulberry32), for synthetic series. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A three-season climb with many matches (hand-made, shaped like the real rank histories: about
 * +30 for a win and −20 for a loss, a few matches a day), from Gold into Diamond.
 */
export function syntheticRankHistory(): RankHistoryChart {
  const next = random(13);
  const seasons: { name: string; start: number; days: number; from: number; winRate: number }[] = [
    { name: 'Season 2', start: Date.UTC(2025, 3, 11) / 1000, days: 24, from: 3380, winRate: 0.55 },
    { name: 'Season 2.5', start: Date.UTC(2025, 4, 30) / 1000, days: 26, from: 3560, winRate: 0.56 },
    { name: 'Season 3', start: Date.UTC(2025, 6, 11) / 1000, days: 28, from: 3810, winRate: 0.57 },
  ];
  let score = 0;
  const out = seasons.map((s) => {
    score = s.from;
    const points: RankPoint[] = [];
    for (let day = 0; day < s.days; day++) {
      if (next() < 0.3) continue;
      const matches = 1 + Math.floor(next() * 5);
      for (let m = 0; m < matches; m++) {
        score += next() < s.winRate ? 25 + next() * 12 : -(16 + next() * 8);
        points.push({ time: s.start + day * 86_400 + 18 * 3_600 + m * 1_500, score });
      }
    }
    return { name: s.name, points };
  });
  return { kind: 'rank-history', title: 'NightOwl · rank history', seasons: out, current: { tier: 'Diamond II', score } };
}

/** A hero meta as the hero statistics commands would chart it (hand-written, realistic spreads). */
export function metaScatterSample(): MetaScatterChart {
  const rows: [string, string, number, number][] = [
    ['Adam Warlock', 'Strategist', 0.512, 0.041],
    ['Black Panther', 'Duelist', 0.487, 0.043],
    ['Black Widow', 'Duelist', 0.446, 0.012],
    ['Captain America', 'Vanguard', 0.497, 0.022],
    ['Cloak & Dagger', 'Strategist', 0.521, 0.058],
    ['Doctor Strange', 'Vanguard', 0.508, 0.061],
    ['Groot', 'Vanguard', 0.529, 0.027],
    ['Hela', 'Duelist', 0.503, 0.052],
    ['Hulk', 'Vanguard', 0.488, 0.019],
    ['Invisible Woman', 'Strategist', 0.534, 0.047],
    ['Iron Fist', 'Duelist', 0.476, 0.015],
    ['Iron Man', 'Duelist', 0.491, 0.029],
    ['Jeff the Land Shark', 'Strategist', 0.495, 0.024],
    ['Loki', 'Strategist', 0.485, 0.021],
    ['Luna Snow', 'Strategist', 0.517, 0.069],
    ['Magik', 'Duelist', 0.499, 0.038],
    ['Mantis', 'Strategist', 0.526, 0.035],
    ['Moon Knight', 'Duelist', 0.482, 0.031],
    ['Namor', 'Duelist', 0.478, 0.011],
    ['Peni Parker', 'Vanguard', 0.541, 0.016],
    ['Psylocke', 'Duelist', 0.494, 0.034],
    ['Rocket Raccoon', 'Strategist', 0.523, 0.044],
    ['Scarlet Witch', 'Duelist', 0.51, 0.026],
    ['Spider-Man', 'Duelist', 0.467, 0.023],
    ['Star-Lord', 'Duelist', 0.502, 0.017],
    ['Storm', 'Duelist', 0.472, 0.009],
    ['The Punisher', 'Duelist', 0.518, 0.025],
    ['Thor', 'Vanguard', 0.506, 0.028],
    ['Venom', 'Vanguard', 0.516, 0.033],
    ['Winter Soldier', 'Duelist', 0.505, 0.02],
  ];
  return {
    kind: 'meta-scatter',
    title: 'Hero meta · Competitive · Season 3',
    heroes: rows.map(([name, role, winRate, pickShare]) => ({ name, role, winRate, pickShare })),
  };
}

/**
 * A real profile's heroes as a Japanese member sees them: locale `ja` (the chart's own words in
 * Japanese) and the title the /player command writes in Japanese ("Sir Final · ランクマッチのヒーロー ·
 * シーズン1.5"), from the project's translations.
 */
export function japaneseHeroPerformance(p: PlayerProfile): HeroPerformanceChart {
  const season = trIn('ja', 'player:season', { number: 1.5 });
  return { ...heroPerformanceFromProfile(p), locale: 'ja', title: trIn('ja', 'charts:titles.heroes.ranked', { name: p.name, season }) };
}

/** The charts the golden-image tests draw, by file name (without `.png`). */
/** A square PNG drawn here (so the golden images hold real image drawing): a role-coloured gradient with a ring. */
function samplePortrait(color: string): Uint8Array {
  const canvas = createCanvas(96, 96);
  const ctx = canvas.getContext('2d');
  const g = ctx.createLinearGradient(0, 0, 96, 96);
  g.addColorStop(0, color);
  g.addColorStop(1, '#1e1f22');
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, 96, 96);
  ctx.strokeStyle = '#ffffff';
  ctx.lineWidth = 8;
  ctx.beginPath();
  ctx.arc(48, 48, 26, 0, Math.PI * 2);
  ctx.stroke();
  return new Uint8Array(canvas.toBuffer('image/png'));
}

/**
 * Profile cards, hand-written from the freddyhun sample's figures (Celestial I, 5,032): images for the icon and the first
 * hero, bytes that do not decode for the second (drawn as a placeholder), and none for the rank badge and the third.
 */
function profileCardSample(): ProfileCard {
  return {
    kind: 'profile-card',
    title: 'Freddyhun',
    subtitle: 'Level 45 · PC',
    season: 'Season 1.5 (current)',
    icon: 'https://img.test/rivals/players/heads/player_head_30000001.png',
    rank: { tier: 'Celestial I', score: '5,032 RS', peak: 'Peak 5,066', season: null, icon: 'https://img.test/rivals/ranks/celestial.png' },
    tiles: [
      { label: 'Ranked', value: '61 W / 110' },
      { label: 'Ranked win rate', value: '55.5 %' },
      { label: 'Ranked KDA', value: '4.12' },
      { label: 'To Eternity', value: '68 RS' },
    ],
    heroes: [
      { name: 'Jeff the Land Shark', role: 'Strategist', lines: ['58.2 % · 67', 'KDA 5.01'], image: 'https://img.test/rivals/heroes/jeff.png' },
      { name: 'Cloak & Dagger', role: 'Strategist', lines: ['50.0 % · 22', 'KDA 4.40'], image: 'https://img.test/rivals/heroes/broken.png' },
      { name: 'Peni Parker', role: 'Vanguard', lines: ['47.6 % · 21', 'KDA 3.02'], image: null },
    ],
    roles: [
      { role: 'Strategist', label: 'Strategist 77 %', seconds: 61_200 },
      { role: 'Vanguard', label: 'Vanguard 18 %', seconds: 14_400 },
      { role: 'Duelist', label: 'Duelist 5 %', seconds: 3_600 },
    ],
    form: ['win', 'loss', 'loss', 'win', 'loss', 'loss', 'win', 'win', 'loss', 'win', 'win', 'win', 'loss', 'win'],
    labels: { heroes: 'Top heroes', roles: 'Play time by role · 22h 0m', form: 'Recent form (last 14 matches)', record: '8 W · 6 L' },
    images: {
      'https://img.test/rivals/players/heads/player_head_30000001.png': samplePortrait('#b57cff'),
      'https://img.test/rivals/heroes/jeff.png': samplePortrait('#45d48a'),
      'https://img.test/rivals/heroes/broken.png': new Uint8Array([1, 2, 3, 4]),
    },
  };
}

/** The card in Japanese, with names long enough to be shortened with an ellipsis, and a rank of another season than its own. */
function japaneseProfileCard(): ProfileCard {
  const card = profileCardSample();
  return {
    ...card,
    locale: 'ja',
    title: 'とても長いプレイヤー名のテストアカウント',
    subtitle: 'レベル 45 · PC',
    season: 'シーズン1.5（現在）',
    rank: { tier: 'Celestial I', score: '5,032 RS', peak: '最高 5,066', season: 'シーズン1', icon: null },
    tiles: [
      { label: 'ランクマッチ', value: '110戦61勝' },
      { label: 'ランクマッチ勝率', value: '55.5%' },
      { label: 'ランクマッチKDA', value: '4.12' },
      // A rank of another season than the tiles': no pace beside them.
      { label: 'MVP / SVP', value: '12 / 30' },
    ],
    // As the bot writes them in Japanese: percentages without a space.
    heroes: card.heroes.map((h) => ({ ...h, lines: h.lines.map((line) => line.replace(' %', '%')) })),
    roles: card.roles.map((r, i) => ({ ...r, label: `${['ストラテジスト', 'ヴァンガード', 'デュエリスト'][i]} ${['77', '18', '5'][i]}%` })),
    labels: { heroes: 'よく使うヒーロー', roles: 'ロール別プレイ時間 · 22時間0分', form: '最近の調子（直近14試合）', record: '8勝6敗' },
  };
}

/**
 * A match card, hand-written from the figures /match shows for the autumnnippert sample 6713355_1740604074_322_11001_10: a
 * map image behind the header, portraits for some heroes, bytes that do not decode for one, MVP and SVP, a player who left early.
 */
function matchCardSample(): MatchCard {
  const row = (name: string, hero: string, role: string, kda: string, figures: string, extra: Partial<MatchCard['teams'][number]['players'][number]> = {}) => ({
    name,
    hero,
    role,
    image: null,
    kda,
    figures,
    badge: null,
    dimmed: false,
    ...extra,
  });
  return {
    kind: 'match-card',
    title: 'Quick Play',
    subtitle: 'Yggsgard: Royal Palace · 6m 44s',
    columns: 'K/D/A · damage · healing',
    image: 'https://img.test/rivals/maps/royal-palace.png',
    teams: [
      {
        title: 'Team A · Defeat',
        won: false,
        players: [
          row('Gergory-House', 'Storm', 'Duelist', '11/5/13', '12,286', { image: 'https://img.test/rivals/heroes/storm.png' }),
          row('THC_SussyBaka', 'Thor', 'Vanguard', '10/6/1', '8,753'),
          row('Jdog15', 'Hulk', 'Vanguard', '7/4/0', '4,618', { dimmed: true }),
          row('Card1gan', 'Cloak & Dagger', 'Strategist', '12/6/8', '6,509 · 14,502', {
            badge: 'SVP',
            image: 'https://img.test/rivals/heroes/broken.png',
          }),
          row('voidwalkerz', 'Scarlet Witch', 'Duelist', '10/9/0', '8,028'),
          row('Spqnked', 'Adam Warlock', 'Strategist', '4/8/10', '5,234 · 8,532'),
          row('Diijonn', 'Magneto', 'Vanguard', '0/1/0', '1,040', { dimmed: true }),
        ],
      },
      {
        title: 'Team B · Victory',
        won: true,
        players: [
          row('KingDomENT', 'The Thing', 'Vanguard', '15/3/2', '7,277'),
          row('Zillaforilla', 'Thor', 'Vanguard', '7/5/1', '4,706'),
          row('Alikye', 'Psylocke', 'Duelist', '29/2/0', '13,263', { badge: 'MVP', image: 'https://img.test/rivals/heroes/psylocke.png' }),
          row('JakMiOph', 'Adam Warlock', 'Strategist', '12/2/13', '3,029 · 11,705'),
          row('rahzey', 'Mister Fantastic', 'Duelist', '22/4/2', '9,181'),
          row('EarthGore', 'Invisible Woman', 'Strategist', '11/3/25', '3,917 · 12,488'),
        ],
      },
    ],
    images: {
      'https://img.test/rivals/maps/royal-palace.png': samplePortrait('#3a6ea5'),
      'https://img.test/rivals/heroes/storm.png': samplePortrait('#e0604a'),
      'https://img.test/rivals/heroes/psylocke.png': samplePortrait('#b57cff'),
      'https://img.test/rivals/heroes/broken.png': new Uint8Array([1, 2, 3, 4]),
    },
  };
}

/** The match card in Japanese, with a name and a hero long enough to be shortened with an ellipsis. */
function japaneseMatchCard(): MatchCard {
  const card = matchCardSample();
  const [a, b] = card.teams;
  return {
    ...card,
    locale: 'ja',
    title: 'クイックプレイ',
    subtitle: 'ユグドラシル：ロイヤルパレス · 6分44秒',
    columns: 'K/D/A・ダメージ・回復',
    teams: [
      {
        ...a!,
        title: 'チームA · 敗北',
        players: a!.players.map((p, i) =>
          i === 3 ? { ...p, name: 'とても長いプレイヤー名のテストアカウント', hero: 'クローク＆ダガー', badge: 'SVP', figures: '6,509 · 14,502' } : p,
        ),
      },
      { ...b!, title: 'チームB · 勝利' },
    ],
  };
}

/** A ladder card of ten members, hand-written from the sample players' figures: tiers across the bands, rises and falls, the member asking fourth. */
function ladderCardSample(): LadderCard {
  const rows: [string, string, string, string, 'up' | 'down' | 'none'][] = [
    ['Freddyhun', 'Celestial I', '5,032', '▬ ±0', 'none'],
    ['Mrblungy', 'Grandmaster II', '4,621', '▼ −40.4', 'down'],
    ['Card1gan', 'Grandmaster III', '4,562', '▲ +12.5', 'up'],
    ['Sir Final', 'Grandmaster III', '4,559', '▼ −19.8', 'down'],
    ['Chob Bob', 'Platinum II', '4,046', '▲ +46.1', 'up'],
    ['Double C', 'Gold II', '3,752', '▲ +217.3', 'up'],
    ['HayamaKen', 'Silver I', '3,546', '', 'none'],
    ['A member with a very long display name indeed', 'Bronze III', '3,012', '▬ ±0', 'none'],
    ['Zillaforilla', 'Unranked', '—', '', 'none'],
    ['EarthGore', 'One Above All', '5,400', '▲ +88.0', 'up'],
  ];
  return {
    kind: 'ladder-card',
    title: 'Server ladder',
    subtitle: '10 members listed · rank scores as the bot last read them',
    weekLabel: 'this week',
    rows: rows.map(([name, tier, score, week, trend], i) => ({ position: String(i + 1), name, tier, score, week, trend, you: i === 3 })),
  };
}

/** The season ladder's deepest page as /leaderboard draws it: four-digit places, the win rate in the last column. */
function seasonLadderCardSample(): LadderCard {
  const rows: [string, string, string, string][] = [
    ['NovaAce986', 'Diamond II', '4,395', '68.1 %'],
    ['StarkDiff987', 'Diamond II', '4,394', '61.1 %'],
    ['CelestialPrime988', 'Diamond II', '4,392', '52.1 %'],
    ['AsgardAce989', 'Diamond II', '4,391', '59.1 %'],
    ['A player with a very long name indeed', 'Diamond II', '4,391', '54.6 %'],
    ['VibraniumFlex991', 'Diamond II', '4,389', '57.7 %'],
    ['NovaAce992', 'Diamond II', '4,388', '50.2 %'],
    ['NovaMain993', 'Diamond III', '4,386', '60.4 %'],
    ['EternalOTP994', 'Diamond III', '4,385', '54.5 %'],
    ['AsgardTTV995', 'Diamond III', '4,384', '50.9 %'],
  ];
  return {
    kind: 'ladder-card',
    title: 'Season 3',
    subtitle: 'Season ladder · PC',
    weekLabel: 'win rate',
    rows: rows.map(([name, tier, score, rate], i) => ({ position: String(991 + i), name, tier, score, week: rate, trend: 'none', you: i === 7 })),
  };
}

/** A duos card as /ladder duos draws it, from the playground's recorded duo and made-up others: tones, a long name, the asker's row. */
function tableCardSample(): TableCard {
  const rows: [string, string, string, string, CardTone][] = [
    ['Card1gan + voidwalkerz', '1–3', '25 % (5–70 %)', '60 % · 48 %', 'loss'],
    ['Freddyhun + Sir Final', '12–4', '75 % (51–90 %)', '58 % · 61 %', 'win'],
    ['Double C + HayamaKen', '9–9', '50 % (29–71 %)', '52 % · 47 %', 'plain'],
    ['A member with a very long display name indeed + Chob Bob', '7–2', '78 % (45–94 %)', '— · 55 %', 'win'],
  ];
  return {
    kind: 'table-card',
    title: 'Duos of the server',
    subtitle: 'Members of the ladder who played at least 3 matches on one team',
    tiles: [],
    columns: ['Duo', 'Together', 'Win rate (95 %)', 'Each apart'],
    rows: rows.map(([duo, record, rate, apart, tone], i) => ({
      cells: [
        { text: duo, tone: 'plain' },
        { text: record, tone },
        { text: rate, tone: 'plain' },
        { text: apart, tone: 'muted' },
      ],
      you: i === 1,
    })),
  };
}

/** A session card as /session draws it: its figures as tiles, then its matches. */
function sessionCardSample(): TableCard {
  const matches: [string, 'Win' | 'Loss', string, string][] = [
    ['Jeff the Land Shark', 'Win', '12 / 3 / 21', '▲ +28'],
    ['Jeff the Land Shark', 'Loss', '4 / 9 / 14', '▼ −19'],
    ['Invisible Woman', 'Win', '6 / 2 / 30', '▲ +31'],
    ['Luna Snow', 'Win', '3 / 4 / 25', '▲ +26'],
  ];
  return {
    kind: 'table-card',
    title: 'Latest session · Card1gan',
    subtitle: 'Sunday 7 December 2025, 20:10–21:24 UTC',
    tiles: [
      { label: 'Matches', value: '4', tone: 'plain' },
      { label: 'Won–lost', value: '3–1 · 75 %', tone: 'win' },
      { label: 'Rank score', value: '▲ +66', tone: 'win' },
      { label: 'Tier', value: 'Gold I → Platinum III', tone: 'plain' },
    ],
    columns: ['Hero', 'Result', 'K / D / A', 'Score'],
    rows: matches.map(([hero, result, kda, score]) => ({
      cells: [
        { text: hero, tone: 'plain' },
        { text: result, tone: result === 'Win' ? 'win' : 'loss' },
        { text: kda, tone: 'plain' },
        { text: score, tone: result === 'Win' ? 'win' : 'loss' },
      ],
      you: false,
    })),
  };
}

export function goldenSpecs(): Record<string, ChartSpec> {
  const freddy = sampleProfile('freddyhun-template-2025-03.json');
  const sirFinal = sampleProfile('autumnnippert-sir-final-1117455441.json');
  return {
    'rank-history-real': rankHistoryFromProfile(freddy),
    'rank-history-seasons': syntheticRankHistory(),
    'hero-performance': heroPerformanceFromProfile(sirFinal),
    'meta-scatter': metaScatterSample(),
    'compare-rank': compareFromProfiles(sirFinal, freddy),
    'ladder-rank': ladderFromProfiles(freddy, sirFinal, sampleProfile('autumnnippert-card1gan-1403392756-2025-03-06.json')),
    'no-data': { kind: 'hero-performance', title: 'Nobody · heroes', heroes: [] },
    'hero-performance-ja': japaneseHeroPerformance(sirFinal),
    'profile-card': profileCardSample(),
    'profile-card-ja': japaneseProfileCard(),
    'match-card': matchCardSample(),
    'match-card-ja': japaneseMatchCard(),
    'ladder-card': ladderCardSample(),
    'ladder-card-season': seasonLadderCardSample(),
    'table-card': tableCardSample(),
    'table-card-session': sessionCardSample(),
  };
}
