/** WCAG contrast: relative luminance, contrast ratio, and the text colour that reads better on a background. */
function channel(value: number): number {
  const c = value / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** Relative luminance of a `#rgb` or `#rrggbb` colour (WCAG). */
export function luminance(hex: string): number {
  let digits = hex.replace('#', '');
  if (digits.length === 3) digits = [...digits].map((digit) => digit + digit).join('');
  const [r, g, b] = [0, 2, 4].map((at) => parseInt(digits.slice(at, at + 2), 16));
  return 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
}

export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

/**
 * White or black, whichever reads better on `background`: on any colour one of the two gives at
 * least 4.58:1 (√21, where their contrasts cross), so text on a site's own colour always passes AA.
 * @example textOn('#1f3a5f') // '#ffffff'; textOn('#ffd400') // '#000000'
 */
export function textOn(background: string): string {
  return contrast(background, '#ffffff') >= contrast(background, '#000000') ? '#ffffff' : '#000000';
}

/**
 * The pairs of a palette whose contrast is below `minimum`, as `"fore on back: ratio"` lines.
 * @example contrastFailures({ text: '#777', bg: '#fff' }, [['text', 'bg']], 4.5) // ['text on bg: 4.48']
 */
export function contrastFailures<K extends string>(
  palette: Record<K, string>,
  pairs: readonly (readonly [K, K])[],
  minimum: number,
): string[] {
  return pairs.flatMap(([fore, back]) => {
    const ratio = contrast(palette[fore], palette[back]);
    return ratio < minimum ? [`${fore} on ${back}: ${ratio.toFixed(2)}`] : [];
  });
}
