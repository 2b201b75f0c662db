import type { ThemeConfig } from 'antd';

/**
 * The console's colours, every text at WCAG AA (4.5:1) or better, checked by the axe walk
 * over every screen (tests/browser/screens-axe.test.ts):
 * - a darker green for primary buttons, links and the active tab, a darker red under
 *   white badge counts, and darker secondary and placeholder text than antd's 45 % and
 *   25 % black;
 * - the status tags (success, processing, warning, error) through the status colours; the
 *   preset-coloured tags (`green`, `gold`, …) in index.html, as antd's palette tokens do
 *   not reach their styles;
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
    // antd derives a grey-green from the dark success colour; a light green instead, so that
    // success tags and rows highlighted as success read as green and keep their contrast.
    colorSuccessBg: '#e8f5e9',
    colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
    colorTextDescription: 'rgba(0, 0, 0, 0.62)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.6)',
    controlItemBgActive: '#dcefe2',
    controlItemBgActiveHover: '#cbe6d4',
  },
  components: {
    Menu: { itemSelectedBg: '#dcefe2', itemSelectedColor: '#1b5e31', itemActiveBg: '#cbe6d4' },
  },
};
