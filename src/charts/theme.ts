/**
 * The look of every chart: Discord's dark embed colours, the Inter font (with Noto Sans JP for
 * Japanese text), and sizes readable when Discord shows the image at phone width.
 *
 * The readability rule: Discord's mobile app shows an embed image about {@link PHONE_WIDTH} CSS px wide,
 * so a font of `s` px on a canvas `w` px wide comes out `s × 360 / w` CSS px. Anything a member must
 * read (ticks, legends, data labels, axis titles, notes) is at least {@link MIN_LABEL_RATIO} (2.9 %) of
 * the canvas width, which is at least 10.5 CSS px at 360 px; titles at least 13 CSS px. At 800 px wide:
 * labels 24 px → 10.8 CSS px, subtitle 24 px → 10.8, title 30 px → 13.5, "No data" 28 px → 12.6.
 * test/charts/golden.test.ts fails when {@link FONT}.label / {@link SIZE}.width drops below the ratio.
 */

/**
 * Canvas size in pixels (device pixel ratio 1): 16:9, twice the 400 CSS px Discord shows an image at
 * on a desktop (so still sharp on a 2× screen), within the 1,600 × 900 cap. A smaller canvas makes the
 * same fonts larger on a phone, where the image is scaled down to {@link PHONE_WIDTH}.
 */
export const SIZE = { width: 800, height: 450 } as const;
/** The width in CSS px Discord's mobile app shows an embed image at (about). */
export const PHONE_WIDTH = 360;
/** Least font size of readable text as a share of {@link SIZE}.width: 10.5 CSS px at {@link PHONE_WIDTH} (10.5 / 360 ≈ 0.029). */
export const MIN_LABEL_RATIO = 0.029;
/** Least title size as a share of {@link SIZE}.width: 13 CSS px at {@link PHONE_WIDTH}. */
export const MIN_TITLE_RATIO = 13 / 360;
/** The cap every chart stays within: pixels and PNG bytes. */
export const LIMITS = { width: 1600, height: 900, bytes: 8 * 1024 * 1024 } as const;

/** The font family the charts use; registered from assets/fonts by src/charts/fonts.ts. */
export const FONT_FAMILY = 'Inter';
/**
 * The family of the Japanese text Inter has no glyphs for; registered by src/charts/fonts.ts
 * from assets/fonts, only once a chart needs it.
 */
export const JAPANESE_FONT_FAMILY = 'Noto Sans JP';
/**
 * The families of every canvas font string, in order: @napi-rs/canvas draws each character in the first
 * one that has it, so Latin text stays in Inter and Japanese comes from Noto Sans JP. Before Noto Sans JP
 * is registered its name matches nothing and the text is Inter's alone.
 */
export const FONT_STACK = `${FONT_FAMILY}, "${JAPANESE_FONT_FAMILY}"`;

/**
 * Font sizes in pixels at {@link SIZE} (the CSS px they come out at on a 360 px phone in brackets).
 * Nothing a member must read is drawn smaller than `label`: it is the floor, at least
 * {@link MIN_LABEL_RATIO} of the width.
 */
export const FONT = {
  /** 13.5 CSS px at phone width. */
  title: 30,
  /** 10.8 CSS px. */
  subtitle: 24,
  /** Ticks, legends, data labels, axis titles, notes: the floor for anything a member must read (10.8 CSS px). */
  label: 24,
  /** The "No data" message (12.6 CSS px). */
  message: 28,
} as const;

/** Colours as CSS strings. */
export const COLORS = {
  /** Discord's embed background (dark theme). */
  background: '#2b2d31',
  /** Discord's light grey text. */
  text: '#dbdee1',
  /** Titles. */
  heading: '#f2f3f5',
  /** Axis titles, subtitles, notes. */
  muted: '#949ba4',
  /** Grid lines: just visible on the background. */
  grid: 'rgba(219, 222, 225, 0.09)',
  /** The zero line / axis border. */
  axis: 'rgba(219, 222, 225, 0.22)',
  /** Behind labels drawn over the plot (Discord's darker surface). */
  labelBackground: '#1e1f22',
} as const;

/** One colour per role, as the game groups heroes; anything else is {@link OTHER_ROLE_COLOR}. */
export const ROLE_COLORS: Readonly<Record<string, string>> = {
  Vanguard: '#5b9bff',
  Duelist: '#ff6b6b',
  Strategist: '#45d48a',
};
/** Heroes with no known role. */
export const OTHER_ROLE_COLOR = '#8d939c';
/** Roles in the order legends list them. */
export const ROLE_ORDER = ['Vanguard', 'Duelist', 'Strategist'] as const;

/** The role a spec's role text is drawn as: one of {@link ROLE_ORDER} (any case), else null ("Other"). */
export function knownRole(role: string | null): (typeof ROLE_ORDER)[number] | null {
  if (!role) return null;
  const lower = role.trim().toLowerCase();
  return ROLE_ORDER.find((r) => r.toLowerCase() === lower) ?? null;
}

/** The colour of a role (grey for unknown roles and null). */
export function roleColor(role: string | null): string {
  const known = knownRole(role);
  return known ? ROLE_COLORS[known]! : OTHER_ROLE_COLOR;
}

/**
 * Line colours of series drawn over the tier bands, most recent first: white for the latest season so
 * it stands out, then colours that stay apart from each other and from the bands' tints.
 */
export const SERIES_COLORS = ['#ffffff', '#7cc4ff', '#ffd166', '#ff9b85', '#b9a7ff', '#8ce99a', '#f783ac', '#ffa94d'] as const;
/** The two players of a comparison. */
export const COMPARE_COLORS = ['#4dabf7', '#ffa94d'] as const;

/** `#rrggbb` with an alpha (0..1) as `rgba(…)`. */
export function withAlpha(hex: string, alpha: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

/**
 * A canvas font string: weight 400 (Inter Regular, Noto Sans JP Regular) or 600 (the SemiBolds), size
 * in pixels, over {@link FONT_STACK}: `600 30px Inter, "Noto Sans JP"`.
 */
export function font(size: number, weight: 400 | 600 = 400): string {
  return `${weight} ${size}px ${FONT_STACK}`;
}
