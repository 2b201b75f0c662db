/**
 * The live preview: the draft rendered by the console's own renderers (ScreenFrame, the
 * same component a route shows) with real data through the console's data provider, read
 * only, and as the role chosen in "view as". It renders the last registry that passed the
 * checks; the editor says why a newer draft is not shown. In the pseudo-locale
 * (runtime/i18n/pseudo.ts) every text of the documents and of the runtime is shown
 * accented, bracketed and about 40 % longer: where a label is cut off shows at once.
 */
import { Alert, Empty } from 'antd';
import { Provider as JotaiProvider } from 'jotai';
import { Component, useMemo, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createPseudoI18n, pseudoTexts } from '../../runtime/i18n/pseudo.ts';
import { buildRegistry, type SourceDocument } from '../../runtime/schema/registry.ts';
import { WIDGET_NAMES } from '../../runtime/schema/widget-names.ts';
import type { SchemaRegistry } from '../../runtime/schema/registry.ts';
import { screenRoutes, type Screen } from '../../runtime/schema/screen.ts';
import { ScreenFrame } from '../../runtime/screens/ScreenView.tsx';
import type { ScreenHost } from '../../runtime/screens/host.ts';
import { ServicesContext } from '../../runtime/services/context.ts';
import type { ConsoleServices } from '../../runtime/services/contract.ts';
import { previewServices, type PreviewGrants } from './preview-services.ts';
import type { Say } from './texts.ts';
import { effectiveDocuments } from './effective.ts';

export interface PreviewProps {
  registry: SchemaRegistry;
  screenId: string | null;
  services: ConsoleServices;
  grants: PreviewGrants;
  say: Say;
  /** Changes whenever a new valid draft is shown: the preview mounts afresh. */
  version: number;
  /** Render in the pseudo-locale (preview only, never a user's language). */
  pseudo?: boolean;
}

/** The registry with every text of every document in the pseudo-locale (checked already: taken as it is). */
export function pseudoRegistry(registry: SchemaRegistry): SchemaRegistry {
  const docs: (SourceDocument & { source: string })[] = effectiveDocuments(registry).map((d) => ({ ...d, content: pseudoTexts(d.content), trusted: true, source: 'pseudo' }));
  return buildRegistry(docs, { widgetNames: WIDGET_NAMES });
}

export function Preview({ registry: draftRegistry, screenId, services, grants, say, version, pseudo = false }: PreviewProps) {
  const registry = useMemo(() => (pseudo ? pseudoRegistry(draftRegistry) : draftRegistry), [draftRegistry, pseudo]);
  const scoped = useMemo(() => {
    const base = previewServices(services, grants, say('previewNeverWrites'));
    return pseudo ? { ...base, i18n: createPseudoI18n() } : base;
  }, [services, grants, say, pseudo]);
  const screen: Screen | undefined = screenId ? registry.screen(screenId) : undefined;
  const host = useMemo<ScreenHost | null>(() => {
    if (!screen) return null;
    const route = screenRoutes(screen)[0];
    return { registry, routePattern: route?.route, authority: route?.authority ?? screen.authority, params: {}, query: {} };
  }, [registry, screen]);
  if (!screen || !host) return <Empty description={say('previewNoRoute')} />;
  const allowed = screenRoutes(screen).some((r) => grants.menus.includes(r.authority)) || (!screenRoutes(screen).length && grants.menus.includes(screen.authority));
  if (!allowed) return <Alert type="info" showIcon title={say('previewNoAuthority', { code: host.authority })} />;
  return (
    <ServicesContext.Provider value={scoped}>
      <I18nextProvider i18n={scoped.i18n}>
        <JotaiProvider store={scoped.store}>
          <PreviewBoundary key={`${version}${pseudo ? 'p' : ''}`}>
            <div data-testid="studio-preview" data-locale={pseudo ? 'pseudo' : undefined} style={{ pointerEvents: 'auto' }}>
              <ScreenFrame screen={screen} host={host} />
            </div>
          </PreviewBoundary>
        </JotaiProvider>
      </I18nextProvider>
    </ServicesContext.Provider>
  );
}

/** A render that throws stays inside the preview, with its message. */
class PreviewBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? <Alert type="error" showIcon title={this.state.error.message} /> : this.props.children;
  }
}
