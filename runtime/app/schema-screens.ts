/**
 * The console's gated routes from the schema registry: one ScreenRoute per route of
 * every valid screen (aliases included, each with its own authority), one per salvaged
 * route of an invalid screen (showing its error panel in its own place), and one per
 * section root of the menus (spec §2.4 redirects). AppRoutes splits them by the user's
 * menu codes into permitted routes and 401 routes.
 */
import { createElement } from 'react';
import zh from '../../locales/zh.json';
import en from '../../locales/en.json';
import es from '../../locales/es.json';
import type { SchemaRegistry } from '../schema/registry.ts';
import { screenRoutes } from '../schema/screen.ts';
import type { I18nText } from '../schema/texts.ts';
import { sectionRoots } from '../routing/section-roots.ts';
import { PublicFrame } from '../screens/PublicFrame.tsx';
import { BrokenScreenView, RoutedScreen } from '../screens/ScreenView.tsx';
import { SectionRootRedirect } from '../screens/SectionRootRedirect.tsx';
import type { ScreenRoute } from '../shell/screen-route.ts';
import { registerDefaultFeatures } from './default-features.ts';

const INVALID_TITLE: I18nText = { zh: zh.screens.invalid.tab, en: en.screens.invalid.tab, es: es.screens.invalid.tab };

export function schemaScreenRoutes(registry: SchemaRegistry): ScreenRoute[] {
  registerDefaultFeatures();
  const out: ScreenRoute[] = [];
  const taken = new Set<string>();
  for (const { screen } of registry.screens.values()) {
    // A public screen is in no menu and needs no session: AppRoutes mounts it outside the gate.
    const meta = {
      id: screen.id,
      title: screen.title,
      icon: screen.icon,
      keepAlive: !!screen.keepAlive,
      hidden: !!screen.hidden || !!screen.public || !!screen.fullScreen,
      // A published revision brings its help; a bundled document's is fetched on demand.
      ...(screen.help ? { help: screen.help } : { loadHelp: () => import('./screen-help.ts').then((m) => m.bundledHelp(screen.id)) }),
    };
    for (const r of screenRoutes(screen)) {
      taken.add(r.route.toLowerCase());
      const routed = createElement(RoutedScreen, { key: r.route, registry, screenId: screen.id, pattern: r.route, authority: r.authority });
      out.push({
        path: r.route,
        authority: r.authority,
        element: screen.public ? createElement(PublicFrame, null, routed) : routed,
        meta,
        ...(screen.public ? { public: true } : {}),
        ...(screen.fullScreen ? { fullScreen: true } : {}),
      });
    }
  }
  for (const broken of registry.broken) {
    for (const r of broken.routes) {
      taken.add(r.route.toLowerCase());
      out.push({
        path: r.route,
        authority: r.authority,
        element: createElement(BrokenScreenView, { broken }),
        meta: { id: broken.id ?? broken.file, title: INVALID_TITLE, keepAlive: false, hidden: true },
      });
    }
  }
  if (registry.menus) {
    for (const root of sectionRoots(registry.menus.doc)) {
      if (taken.has(root.path.toLowerCase())) continue;
      out.push({
        path: root.path,
        authority: root.authority,
        element: createElement(SectionRootRedirect, { root }),
        meta: { id: `section:${root.authority}`, title: sectionTitle(registry, root.authority), keepAlive: false, hidden: true },
      });
    }
  }
  return out;
}

function sectionTitle(registry: SchemaRegistry, code: string): I18nText {
  const section = registry.menus?.doc.menus.find((s) => s.code === code);
  return section ? { zh: section.title.zh, en: section.title.en, es: section.title.es } : { zh: code, en: code, es: code };
}
