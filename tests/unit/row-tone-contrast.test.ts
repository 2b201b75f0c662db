/**
 * A highlighted row (the schema's `rowHighlight`) keeps its links and text readable: over
 * each tone's background the console theme's link colour and text reach WCAG AA (4.5:1).
 * antd's error background alone gave the link 4.25:1 (the axe walk found it on /farmInput/index).
 */
import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { halfTone } from '../../runtime/screens/DataGrid.tsx';
import { ACCESSIBLE_THEME } from '../../runtime/shell/theme.ts';

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a: string, b: string) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
};

describe('row tones', () => {
  const token = theme.getDesignToken(ACCESSIBLE_THEME);
  const tones = { danger: token.colorErrorBg, warning: token.colorWarningBg, success: token.colorSuccessBg, info: token.colorInfoBg };

  it('halves a tone towards the base colour', () => {
    expect(halfTone('#ff0000', '#ffffff')).toBe('#ff8080');
    expect(halfTone('rgba(0,0,0,0.1)', '#ffffff')).toBe('rgba(0,0,0,0.1)');
  });

  it.each(Object.entries(tones))('%s: the link colour reads at 4.5:1 or better', (_, bg) => {
    const background = halfTone(bg, token.colorBgContainer);
    expect(contrast(token.colorLink, background)).toBeGreaterThanOrEqual(4.5);
  });

  it('the error background alone would not have been enough (the test sees the difference)', () => {
    expect(contrast(token.colorLink, token.colorErrorBg)).toBeLessThan(4.5);
  });
});
