import type { ThemeConfig } from 'antd';

/**
 * The console's colours, every text at WCAG AA (4.5:1) or better, checked by the axe walk
 * over every screen (tests/browser/screens-axe.test.ts):
 * - a darker green for primary buttons, links and the active tab, a darker red under
 *   white badge counts, and darker secondary and placeholder text than antd's 45 % and
 *   25 % black;
 * - the text of preset-coloured tags (`green`, `blue`, …) at the palette's 9th step, where
 *   antd's 7th step read down to 1.83:1 (gold) on the tag's own light background; the
 *   status tags (success, processing, warning, error) likewise;
 * - a selected menu entry and a selected row in a clear green tint with dark green text,
 *   so that neither looks disabled.
 */
export const ACCESSIBLE_THEME: ThemeConfig = {
  token: {
    colorPrimary: '#2a7f45',
    colorLink: '#2a7f45',
    colorError: '#cf1322',
    colorSuccess: '#237804',
    colorWarning: '#ad6800',
    colorInfo: '#0958d9',
    colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
    colorTextDescription: 'rgba(0, 0, 0, 0.62)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.6)',
    controlItemBgActive: '#dcefe2',
    controlItemBgActiveHover: '#cbe6d4',
    red7: '#820014',
    volcano7: '#871400',
    orange7: '#873800',
    gold7: '#874d00',
    yellow7: '#876800',
    lime7: '#3f6600',
    green7: '#135200',
    cyan7: '#00474f',
    blue7: '#002c8c',
    geekblue7: '#061178',
    purple7: '#22075e',
    magenta7: '#780650',
  },
  components: {
    Menu: { itemSelectedBg: '#dcefe2', itemSelectedColor: '#1b5e31', itemActiveBg: '#cbe6d4' },
  },
};
