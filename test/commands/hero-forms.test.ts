/**
 * /hero on the real hero list (api-samples/heroes, served by the replica): abilities by form, key
 * bindings and field labels in one casing, health and speed from "Base Stat" entries, costume
 * qualities that say nothing left out, and "&" typed as "and".
 */
import { describe, expect, it } from 'vitest';
import { runInLocale } from '../../src/i18n/index.js';
import { bot, customIds, OTHER_MEMBER, useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();
/** Text as Discord shows it: each markdown escape (`\[`, `\:`) drawn as its character. */
const shown = (text: string) => text.replace(/\\([^0-9A-Za-z\s])/g, '$1');

type Json = Record<string, unknown>;
const heroJson = (id: number) => env.r.dataset.heroes.find((h) => h.id === id)! as Json & { abilities: Json[]; transformations: Json[]; costumes: Json[] };

/** Every page of a section of a hero, through its page buttons, with a bot of its own when `b` is given (a changed dataset). */
async function pagesOf(heroId: string, section: string, b = env.b) {
  const first = (await b.press(`hero.s:${heroId}`, [section])).payload;
  const last = customIds(first).find((id) => id.endsWith(':l'));
  const count = last ? Number(last.split(':').at(-2)) : 1;
  const embeds = [first.embeds[0]!];
  for (let p = 2; p <= count; p++) embeds.push((await b.press(`hero.p:${heroId}:${section}:${p}:n`)).payload.embeds[0]!);
  return embeds;
}

/** Runs `work` with a bot of its own over a hero of the dataset changed by `change`, then puts the hero back. */
async function withHero(id: number, change: (hero: ReturnType<typeof heroJson>) => void, work: (b: ReturnType<typeof bot>) => Promise<void>) {
  const hero = heroJson(id);
  const saved = structuredClone(hero);
  change(hero);
  const fresh = bot(env.r);
  try {
    await work(fresh);
  } finally {
    await fresh.close();
    Object.assign(hero, saved);
  }
}

describe('/hero abilities: one casing, never "None"', () => {
  it('shows every key binding in one casing and no [None], over every hero of the real list', async () => {
    const spellings = new Map<string, Set<string>>();
    for (const h of env.r.dataset.heroes) {
      for (const e of await pagesOf(String(h.id), 'abilities')) {
        for (const f of e.fields ?? []) {
          const key = shown(f.name).match(/^\[([^\]]+)\] /)?.[1];
          if (!key) continue;
          spellings.set(key.toLowerCase(), (spellings.get(key.toLowerCase()) ?? new Set()).add(key));
        }
      }
    }
    // The real list writes "SHIFT" 40 times and "Shift" 3 times, "Passive" and "PASSIVE", and "None" twice.
    expect(spellings.get('shift')).toEqual(new Set(['Shift']));
    // "Passive" is a kind, not a key to press: beside the name, never in brackets.
    expect(spellings.has('passive')).toBe(false);
    expect(spellings.has('none')).toBe(false);
    for (const [key, set] of spellings) expect([...set], key).toHaveLength(1);
    const punisher = (await pagesOf('1014', 'abilities')).flatMap((e) => e.fields!.map((f) => shown(f.name)));
    // Its key is "None" in the real list: no brackets at all.
    expect(punisher).toContain('Infinite Punishment (Passive)');
    const thing = (await pagesOf('1051', 'abilities')).flatMap((e) => e.fields!.map((f) => shown(f.name)));
    expect(thing).toContain('Unyielding Will (Passive)');
  });

  it('says each kind once and never "Normal", over every hero of the real list', async () => {
    const titles: string[] = [];
    for (const h of env.r.dataset.heroes) for (const e of await pagesOf(String(h.id), 'abilities')) titles.push(...e.fields!.map((f) => shown(f.name)));
    expect(titles.length).toBeGreaterThan(200);
    // The real list types most abilities "Normal", and writes Disc Master's key and type both "Passive".
    expect(titles.filter((t) => /\(Normal\)/.test(t))).toEqual([]);
    for (const t of titles) expect(t.match(/Passive/g)?.length ?? 0, t).toBeLessThanOrEqual(1);
    const magik = (await pagesOf('1029', 'abilities')).flatMap((e) => e.fields!.map((f) => shown(f.name)));
    expect(magik).toContain('Disc Master (Passive)');
    expect(magik).toContain('[Q] Darkchild (Ultimate)');
    expect(magik).toContain('[Left Click] Soulsword');
  });

  it('labels ability details in one casing over every hero ("CoolDown", "Team-up Bonus")', async () => {
    const labels = new Map<string, Set<string>>();
    const textOf = async (id: string) => (await pagesOf(id, 'abilities')).flatMap((e) => e.fields!.map((f) => shown(`${f.name}\n${f.value}`))).join('\n');
    for (const h of env.r.dataset.heroes) {
      for (const [, label] of (await textOf(String(h.id))).matchAll(/^\*\*(.+?):\*\* /gm))
        labels.set(label!.toLowerCase(), (labels.get(label!.toLowerCase()) ?? new Set()).add(label!));
    }
    for (const [label, set] of labels) expect([...set], label).toHaveLength(1);
    // Iron Fist's Dragon's Chill says "Team-up Bonus", Invisible Woman's Fantasti-Force "Team-Up Bonus".
    expect(labels.get('team-up bonus')).toEqual(new Set(['Team-Up Bonus']));
    // Venom's Cellular Corrosion is the one ability with "CoolDown".
    expect(await textOf('1035')).toMatch(/Cellular Corrosion[^\n]*\n(?:.*\n)*?\*\*Cooldown:\*\* 8s/);
    // Thor's Awakening Rune has a second key binding among its details, cased as the first.
    expect(await textOf('1039')).toContain('**Key (Enhanced):** Left Click');
  });
});

describe('/hero abilities grouped by form', () => {
  it('says, for the heroes of several forms in the real list, that the API does not tell which form each ability is of', async () => {
    for (const [id, hero] of [
      ['1011', 'Hulk'],
      ['1025', 'Cloak & Dagger'],
      ['1029', 'Magik'],
    ]) {
      for (const e of await pagesOf(id!, 'abilities'))
        expect(shown(e.description ?? ''), id).toBe(`The API does not say which of ${hero}’s forms each ability belongs to: they are listed together.`);
    }
    // A hero of one form has nothing to say.
    for (const e of await pagesOf('1014', 'abilities')) expect(e.description).toBeUndefined();
    const ja = await runInLocale('ja', () => env.b.press('hero.s:1029', ['abilities']));
    expect(ja.payload.embeds[0]!.description).toBe('APIは各アビリティがMagikのどのフォームのものかを示していないため、まとめて表示しています。');
  });

  it('tells apart same-named forms that each hold abilities: Magik and her Darkchild form, both named “Magik” (the spec shape)', async () => {
    // Hand-written: the spec's `transformation_id` on Magik's abilities, her two records of each ability split between 682 and 683.
    const forms: Record<number, string> = {
      102911: '682',
      102921: '682',
      102941: '682',
      102971: '682',
      102981: '682',
      102915: '683',
      102922: '683',
      102942: '683',
      102951: '683',
      102952: '683',
      102961: '683',
      102962: '683',
      102973: '683',
    };
    await withHero(
      1029,
      (h) => (h.abilities = h.abilities.map((a) => (forms[a.id as number] ? { ...a, transformation_id: forms[a.id as number] } : a))),
      async (b) => {
        const pages = (await pagesOf('1029', 'abilities', b)).map((e) => ({ heading: e.description, names: e.fields!.map((f) => shown(f.name)) }));
        expect(pages).toEqual([
          {
            heading: 'Form: **Magik (form 1)**',
            names: ['[Left Click] Soulsword', '[Right Click] Magik Slash', '[E] Umbral Incursion', '[Shift] Stepping Discs', '[Q] Darkchild (Ultimate)'],
          },
          {
            heading: 'Form: **Magik (form 2)**',
            names: [
              '[Left Click] Soulsword',
              '[Right Click] Magik Slash',
              '[Left Click] Eldritch Whirl',
              "[Right Click] Demon's Rage",
              '[E] Umbral Incursion',
              '[Shift] Stepping Discs',
            ],
          },
          { heading: '**Not tied to a form**', names: ['Disc Master (Passive)', "Limbo's Might (Passive)"] },
        ]);
        // Told apart in each language.
        const de = await runInLocale('de', () => b.press('hero.p:1029:abilities:2:n'));
        expect(de.payload.embeds[0]!.description).toBe('Form: **Magik (Form 2)**');
      },
    );
  });

  it('puts each form’s abilities on pages of their own under its name, a name listed twice once (the spec shape)', async () => {
    // Hand-written: the spec's `transformation_id` on Hulk's abilities. 703 and 706 are both "Bruce Banner": 706 holds none.
    const forms: Record<number, string> = {
      101111: '703',
      101122: '704',
      101121: '703',
      101131: '703',
      101113: '705',
      101171: '705',
      101141: '704',
      101132: '704',
    };
    await withHero(
      1011,
      (h) => (h.abilities = h.abilities.map((a) => (forms[a.id as number] ? { ...a, transformation_id: forms[a.id as number] } : a))),
      async (b) => {
        const pages = (await pagesOf('1011', 'abilities', b)).map((e) => ({ heading: e.description, names: e.fields!.map((f) => shown(f.name)) }));
        expect(pages).toEqual([
          { heading: 'Form: **Bruce Banner**', names: ['[Shift] Gamma Grenade', '[Left Click] Gamma Ray Gun', '[Q] Puny Banner (Ultimate)'] },
          { heading: 'Form: **Monster Hulk**', names: ['[Left Click] Heavy Blow (Weapon)', '[Q] World Breaker (Ultimate)'] },
          { heading: 'Form: **Hero Hulk**', names: ['[Right Click] Gamma Burst', '[Q] Hulk Smash! (Ultimate)', '[Shift] Indestructible Guard'] },
          {
            heading: '**Not tied to a form**',
            names: ['[Right Click] Gamma Burst', '[Left Click] Heavy Blow', '[Space] Incredible Leap', '[E] Radioactive Lockdown'],
          },
        ]);
        const fr = await runInLocale('fr', () => b.press('hero.p:1011:abilities:2:n'));
        expect(fr.payload.embeds[0]!.description).toBe('Forme : **Monster Hulk**');
        // The overview counts the kit as the pages show it.
        expect((await b.run('hero', { name: 'hulk' })).payload.embeds[0]!.fields!.find((f) => f.name === 'Kit')!.value).toBe('12 abilities · 4 costumes');
      },
    );
  });
});

describe('/hero transformations: health and speed from Base Stat entries', () => {
  const fieldsOf = async (id: string, b = env.b) =>
    (await b.press(`hero.s:${id}`, ['transformations'])).payload.embeds[0]!.fields!.map((f) => [shown(f.name), f.value]);

  it('gives Cloak & Dagger the health and speed of its Base Stat, where every form of the real list says 0', async () => {
    expect(await fieldsOf('1025')).toEqual([
      ['Dagger', 'No health or speed listed'],
      ['Cloak', 'No health or speed listed'],
      ['Cloak & Dagger', 'Health: 250\nSpeed: 6 m/s'],
    ]);
    // Hulk's Base Stats (200, 6 m/s) are Bruce Banner's: his other forms are not given those numbers.
    expect(await fieldsOf('1011')).toEqual([
      ['Bruce Banner', 'Health: 200\nSpeed: 6 m/s'],
      ['Monster Hulk', 'No health or speed listed'],
      ['Hero Hulk', 'No health or speed listed'],
    ]);
  });

  it('reads Base Stat entries as the API drifts: by type, tied to a form, named after one, with thousands separators', async () => {
    await withHero(
      1011,
      (h) => {
        h.abilities = [
          ...h.abilities,
          // Hand-written: "Base Stat" as the type, a form by id, health written "1,200".
          {
            id: 101198,
            name: 'Monster Form',
            type: 'Base Stat',
            transformation_id: '705',
            additional_fields: { Health: '1,200', 'Movement Speed': '6.5 m/s' },
          },
          // A form by name, in the entry's name.
          { id: 101199, name: 'Base Stat (Hero Hulk)', type: 'Normal', additional_fields: { 'Max Health': '650', Speed: '6m/s' } },
        ];
      },
      async (b) => {
        expect(await fieldsOf('1011', b)).toEqual([
          ['Bruce Banner', 'Health: 200\nSpeed: 6 m/s'],
          ['Monster Hulk', 'Health: 1,200\nSpeed: 6.5 m/s'],
          ['Hero Hulk', 'Health: 650\nSpeed: 6 m/s'],
        ]);
        // Neither entry is an ability.
        expect((await pagesOf('1011', 'abilities', b)).flatMap((e) => e.fields!.map((f) => f.name)).join('\n')).not.toMatch(/Monster Form|Base Stat/);
      },
    );
  });

  it('gives nothing it cannot read as one number, or that two entries disagree on', async () => {
    await withHero(
      1025,
      (h) => {
        h.abilities = h.abilities.map((a) =>
          String(a.name).startsWith('Base Stat') ? { ...a, additional_fields: { Health: '250 (Cloak) / 250 (Dagger)', 'Movement Speed': '6m/s' } } : a,
        );
        h.abilities.push({ id: 102599, name: 'Base Stat 2', type: 'Normal', additional_fields: { Health: '300', 'Movement Speed': '7m/s' } });
      },
      async (b) => expect((await fieldsOf('1025', b)).at(-1)).toEqual(['Cloak & Dagger', 'No health or speed listed']),
    );
  });
});

describe('/hero costumes: qualities that say nothing', () => {
  const lines = async (b = env.b) => (await b.press('hero.s:1011', ['costumes'])).payload.embeds[0]!.description!.split('\n').map(shown);

  it('leaves out the quality when every costume is "Default" (the real list) or NO_QUALITY (the spec)', async () => {
    // The real list gives every costume {name: "Default", color: "gray"}: the name alone.
    const real = await lines();
    expect(real).toHaveLength(heroJson(1011).costumes.length);
    for (const l of real) expect(l).toMatch(/^\*\*[^*]+\*\*$/);
    await withHero(
      1011,
      (h) => (h.costumes = h.costumes.map((c, i) => ({ ...c, quality: i === 0 ? 'Default' : 'NO_QUALITY' }))),
      async (b) => {
        const shownLines = await lines(b);
        expect(shownLines).toHaveLength(4);
        for (const l of shownLines) expect(l).toMatch(/^\*\*[^*]+\*\*$/);
      },
    );
  });

  it('shows the qualities that say something, in the game’s casing, and never NO_QUALITY', async () => {
    await withHero(
      1011,
      (h) => (h.costumes = h.costumes.map((c, i) => ({ ...c, quality: ['Default', 'LEGENDARY', 'NO_QUALITY', 'Epic'][i] }))),
      async (b) => {
        const shownLines = await lines(b);
        expect(shownLines.map((l) => l.split(' · ')[1] ?? null)).toEqual(['Default', 'Legendary', null, 'Epic']);
      },
    );
  });
});

describe('hero names typed with "and" for "&"', () => {
  it('resolves "cloak and dagger" in any case and spacing, and suggests Cloak & Dagger for it', async () => {
    for (const name of ['cloak and dagger', 'Cloak And Dagger', 'cloak & dagger', 'Cloak&Dagger', 'cloakanddagger']) {
      expect((await env.b.run('hero', { name })).payload.embeds[0]!.title, name).toBe('Cloak & Dagger');
    }
    const choices = async (value: string) =>
      (await env.b.router.autocomplete('hero', { focused: { name: 'name', value }, options: {}, user: OTHER_MEMBER }, env.b.ctx)).map((c) => c.name);
    expect((await choices('cloak and dag'))[0]).toBe('Cloak & Dagger');
    expect((await choices('cloak and'))[0]).toBe('Cloak & Dagger');
    // Other commands that take a hero read it through the same directory.
    expect((await env.b.run('leaderboard', { hero: 'cloak and dagger' })).payload.embeds[0]!.title).toBe('Cloak & Dagger');
  });
});
