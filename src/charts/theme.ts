/**
 * The look of every chart: Discord's dark embed colours, the Inter font, sizes readable when Discord
 * shows the image at phone width (about 360 px wide for a 1,000 px chart, so nothing under 22 px).
 */

/** Canvas size in pixels (device pixel ratio 1): 16:9, about twice what Discord shows on a desktop, within the 1,600 × 900 cap. */
export const SIZE = { width: 1000, height: 560 } as const;
/** The cap every chart stays within (issue 13): pixels and PNG bytes. */
export const LIMITS = { width: 1600, height: 900, bytes: 8 * 1024 * 1024 } as const;

/** The font family the charts use; registered from assets/fonts by src/charts/fonts.ts. */
export const FONT_FAMILY = 'Inter';

/** Font sizes in pixels at {@link SIZE}. */
export const FONT = {
  title: 32,
  subtitle: 22,
  /** Ticks, legends, data labels: the floor for anything a member must read. */
  label: 22,
  /** The "No data" message. */
  message: 30,
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

/** A canvas font string: weight 400 (Inter Regular) or 600 (Inter SemiBold), size in pixels. */
export function font(size: number, weight: 400 | 600 = 400): string {
  return `${weight} ${size}px ${FONT_FAMILY}`;
}
