import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { HOME_PATH } from '../../routing/access.ts';
import { textOf, type Lang } from '../../schema/texts.ts';
import type { ScreenMeta } from '../screen-route.ts';

/**
 * The frame of a `fullScreen` screen (after login, outside the console's menu, top bar and
 * tabs): the screen's title as the page's heading, a way back to the console, the screen
 * below. A full-screen map covers the whole window over it (its own frame keeps a way out
 * through the browser's back); a dashboard such as the regional big screen sits in it.
 */
export function FullScreenFrame({ meta, children }: { meta: ScreenMeta; children: ReactNode }) {
  const { t, i18n } = useTranslation();
  const title = textOf(meta.title, (i18n.language as Lang) ?? 'zh');
  return (
    <main className="full-screen-frame" style={{ minHeight: '100vh', padding: 24, background: '#f0f5f1' }}>
      <header style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', gap: 16, marginBottom: 16 }}>
        <h1 style={{ fontSize: 26, margin: 0 }} data-testid="full-screen-title">
          {title}
        </h1>
        <Link to={HOME_PATH}>{t('fullScreen.back')}</Link>
      </header>
      {children}
    </main>
  );
}
