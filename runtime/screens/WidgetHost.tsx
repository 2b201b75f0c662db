/** A `widget` screen: the manifest's widget with its configuration, or a panel saying why it cannot be shown. */
import { useTranslation } from 'react-i18next';
import type { WidgetScreen } from '../schema/screen.ts';
import { resolveParams } from '../schema/values.ts';
import { useServices } from '../services/context.ts';
import { widgetFor, type WidgetLoader, type WidgetProps } from '../widgets/api.ts';
import { ScreenProblem } from './ErrorPanel.tsx';
import { useLang, useScreenHost } from './host.ts';
import { lazyView, type LazyView } from './lazy-view.ts';

// One lazy component per loader, so a widget's chunk is fetched once and its state survives re-renders.
const views = new WeakMap<WidgetLoader, LazyView<WidgetProps>>();

function viewOf(load: WidgetLoader) {
  let view = views.get(load);
  if (!view) {
    view = lazyView(() => load().then((m) => m.default));
    views.set(load, view);
  }
  return view;
}

export function WidgetHost({ screen }: { screen: WidgetScreen }) {
  const host = useScreenHost();
  const services = useServices();
  const language = useLang();
  const { t } = useTranslation();
  const found = widgetFor(screen.widget);
  if (found.state === 'missing') return <ScreenProblem title={t('screens.widget.missingTitle', { name: screen.widget })} text={t('screens.widget.missingText')} />;
  if (found.state === 'unknown') return <ScreenProblem title={t('screens.widget.unknownTitle', { name: screen.widget })} />;
  const config = { ...(screen.props ?? {}), ...resolveParams(screen.params, { route: host.params, query: host.query }) };
  const Widget = viewOf(found.load);
  return <Widget config={config} route={host.params} authority={host.authority} services={services} registry={host.registry} language={language} />;
}
