import type { ThemeMode, ThemeSettings } from '../api.ts';
import { textOn } from '../../shared/contrast.ts';

export { contrast, luminance, textOn } from '../../shared/contrast.ts';

/**
 * The colour tokens of both themes (set as `--p-<name>` on the widget's root; the sizes, radii and
 * motion are in styles.ts). Checked by theme.test.ts against WCAG 2.2: text (`text`, `muted`,
 * `offText`, `errorText`) at least 4.5:1 on the surfaces it sits on (`bg`, `bubble`, `offBg`,
 * `errorBg`); `border`, `line` (the header's edge in dark mode), the focus `ring` and a disabled
 * control's text at least 3:1 against `bg`. Disabled controls (`offBg` with `offText`) look
 * switched off yet stay legible. Text on the site's own colour is white or near-black, whichever
 * contrasts more; inside the header the focus ring takes that colour too.
 */
export const PALETTES = {
  light: {
    bg: '#ffffff',
    text: '#1d2330',
    muted: '#4a5565',
    bubble: '#eef1f5',
    border: '#8a94a3',
    line: 'transparent',
    ring: '#2456c7',
    offBg: '#e4e8ee',
    offText: '#4a5565',
    errorBg: '#fdecea',
    errorText: '#8a1c12',
    shadow: 'rgba(0,0,0,.22)',
  },
  dark: {
    bg: '#15181d',
    text: '#e8ebf0',
    muted: '#aab3c0',
    bubble: '#262b33',
    border: '#6b7482',
    line: '#6b7482',
    ring: '#8cb4ff',
    offBg: '#2c323b',
    offText: '#b4bcc8',
    errorBg: '#3b1513',
    errorText: '#ffb4ab',
    shadow: 'rgba(0,0,0,.6)',
  },
} as const;

export const DEFAULT_COLOR = '#1f3a5f';

export function validColor(color: string | undefined): string | undefined {
  return color && /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(color) ? color : undefined;
}

export interface ResolvedTheme {
  dark: boolean;
  position: 'left' | 'right';
  /** CSS custom properties for the widget's root element. */
  style: Record<string, string>;
}

export function resolveTheme(theme: ThemeSettings, systemDark: boolean, inboxColor?: string): ResolvedTheme {
  const mode: ThemeMode = theme.mode ?? 'auto';
  const dark = mode === 'dark' || (mode === 'auto' && systemDark);
  const palette = dark ? PALETTES.dark : PALETTES.light;
  const primary = validColor(theme.color) ?? validColor(inboxColor) ?? DEFAULT_COLOR;
  const style: Record<string, string> = { '--p-primary': primary, '--p-on-primary': textOn(primary) };
  for (const [name, value] of Object.entries(palette)) style[`--p-${name}`] = value;
  return { dark, position: theme.position === 'left' ? 'left' : 'right', style };
}
