import { describe, expect, it } from 'vitest';
import { contrast, contrastFailures } from '../../shared/contrast.ts';
import { PALETTES, resolveTheme } from './theme.ts';

// Text and the surfaces it is drawn on (WCAG 2.2 1.4.3: 4.5:1).
const TEXT = [
  ['text', 'bg'],
  ['text', 'bubble'],
  ['muted', 'bg'],
  ['muted', 'bubble'],
  ['offText', 'offBg'],
  ['errorText', 'errorBg'],
] as const;
// Borders, the focus ring and disabled controls against the body (WCAG 2.2 1.4.11: 3:1).
const NON_TEXT = [
  ['border', 'bg'],
  ['ring', 'bg'],
  ['ring', 'bubble'],
  ['offText', 'bg'],
] as const;

describe('the widget palettes', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`${theme}: every text and surface pair is at least 4.5:1`, () => {
      expect(contrastFailures(PALETTES[theme], TEXT, 4.5)).toEqual([]);
    });
    it(`${theme}: borders, the focus ring and disabled controls are at least 3:1 against the body`, () => {
      expect(contrastFailures(PALETTES[theme], NON_TEXT, 3)).toEqual([]);
    });
  }

  it('dark: the header has an edge of at least 3:1 against the body, whatever the site colour', () => {
    expect(contrast(PALETTES.dark.line, PALETTES.dark.bg)).toBeGreaterThanOrEqual(3);
  });

  it('text and the focus ring on any site colour are at least 4.5:1', () => {
    for (const color of [
      '#1f3a5f',
      '#777777',
      '#767676',
      '#ffd400',
      '#00a884',
      '#e11d48',
      '#ffffff',
      '#000000',
      '#808080',
    ]) {
      const { style } = resolveTheme({ color }, false);
      expect(contrast(style['--p-on-primary']!, color), color).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('finds a pair below the minimum', () => {
    expect(contrastFailures({ text: '#777777', bg: '#ffffff' }, [['text', 'bg']], 4.5)).toEqual(['text on bg: 4.48']);
  });
});
