/**
 * The look of every chart: Discord's dark embed colours, Inter (Noto Sans JP for Japanese), and sizes
 * readable on a phone, where Discord scales the image down to {@link PHONE_WIDTH} CSS px.
 */

/** Pixels: twice Discord's desktop image width, so sharp on a 2× screen; smaller makes fonts larger on a phone. */
export const SIZE = { width: 800, height: 450 } as const;
/** CSS px, about. */
export const PHONE_WIDTH = 360;
/** Least readable font size as a share of the width: 10.5 CSS px at {@link PHONE_WIDTH}. */
export const MIN_LABEL_RATIO = 0.029;
/** 13 CSS px at {@link PHONE_WIDTH}. */
export const MIN_TITLE_RATIO = 13 / 360;
/** Pixels and PNG bytes. */
export const LIMITS = { width: 1600, height: 900, bytes: 8 * 1024 * 1024 } as const;

export const FONT_FAMILY = 'Inter';
export const JAPANESE_FONT_FAMILY = 'Noto Sans JP';
/** @napi-rs/canvas draws each character in the first family that has it; an unregistered one matches nothing. */
export const FONT_STACK = `${FONT_FAMILY}, "${JAPANESE_FONT_FAMILY}"`;

/** Pixels at {@link SIZE}. `label` is the floor for anything a member must read (a golden test checks the ratio). */
export const FONT = {
  title: 30,
  subtitle: 24,
  label: 24,
  message: 28,
} as const;

/** CSS strings from Discord's dark theme. */
export const COLORS = {
  background: '#2b2d31',
  text: '#dbdee1',
  heading: '#f2f3f5',
  muted: '#949ba4',
  grid: 'rgba(219, 222, 225, 0.09)',
  axis: 'rgba(219, 222, 225, 0.22)',
  labelBackground: '#1e1f22',
} as const;

export const ROLE_COLORS: Readonly<Record<string, string>> = {
  Vanguard: '#5b9bff',
  Duelist: '#ff6b6b',
  Strategist: '#45d48a',
};
export const OTHER_ROLE_COLOR = '#8d939c';
export const ROLE_ORDER = ['Vanguard', 'Duelist', 'Strategist'] as const;

export function knownRole(role: string | null): (typeof ROLE_ORDER)[number] | null {
  if (!role) return null;
  const lower = role.trim().toLowerCase();
  return ROLE_ORDER.find((r) => r.toLowerCase() === lower) ?? null;
}

export function roleColor(role: string | null): string {
  const known = knownRole(role);
  return known ? ROLE_COLORS[known]! : OTHER_ROLE_COLOR;
}

/** Most recent first: white stands out; the rest stay apart from each other and the tier bands' tints. */
export const SERIES_COLORS = ['#ffffff', '#7cc4ff', '#ffd166', '#ff9b85', '#b9a7ff', '#8ce99a', '#f783ac', '#ffa94d'] as const;
export const COMPARE_COLORS = ['#4dabf7', '#ffa94d'] as const;

export function withAlpha(hex: string, alpha: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

/** `size` in pixels: `600 30px Inter, "Noto Sans JP"`. */
export function font(size: number, weight: 400 | 600 = 400): string {
  return `${weight} ${size}px ${FONT_STACK}`;
}
