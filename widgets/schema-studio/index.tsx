/**
 * The schema studio (issue 14, docs/studio.md): the runtime's own tooling, shown through
 * the widget interface by the widget screens under schemas/screens/studio/, one per view
 * (the screen's `props.view`). Unlike the product's widgets it imports the runtime itself
 * (the renderers for its live preview, the registry and the gate for validation as you
 * type): tests/unit/layers.test.ts allows this folder alone to. The console loads it
 * lazily (widgets/manifest.ts), and each view is a chunk of its own: the documents list and
 * the coverage report never load CodeMirror or the checks.
 */
import { useEffect, useState, type ComponentType } from 'react';
import type { WidgetProps } from '../../runtime/widgets/api.ts';
import { sayer } from './texts.ts';

type View = ComponentType<WidgetProps>;

// Loaded in an effect rather than with React.lazy: a suspension is never retried inside a
// test's act scope (the render check and the snapshot suite render this way).
const VIEWS: Record<string, () => Promise<View>> = {
  documents: () => import('./DocumentsScreen.tsx').then((m) => m.DocumentsScreen),
  edit: () => import('./EditorScreen.tsx').then((m) => m.EditorScreen),
  translations: () => import('./TranslationsScreen.tsx').then((m) => m.TranslationsScreen),
  menus: () => import('./MenusScreen.tsx').then((m) => m.MenusScreen),
  coverage: () => import('./CoverageScreen.tsx').then((m) => m.CoverageScreen),
};

export default function SchemaStudio(props: WidgetProps) {
  const say = sayer(props.language);
  const view = typeof props.config.view === 'string' ? props.config.view : '';
  const load = Object.hasOwn(VIEWS, view) ? VIEWS[view] : null;
  const [loaded, setLoaded] = useState<{ view: string; component: View } | null>(null);
  useEffect(() => {
    if (!load) return;
    let live = true;
    void load().then((component) => live && setLoaded({ view, component }));
    return () => {
      live = false;
    };
  }, [load, view]);
  if (!load) return <p role="alert">{say('unknownView')}</p>;
  if (loaded?.view !== view) return <p aria-busy="true">{say('loading')}</p>;
  const Component = loaded.component;
  return <Component {...props} />;
}
