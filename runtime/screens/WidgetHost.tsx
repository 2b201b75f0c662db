/** A `widget` screen: the manifest's widget with its configuration, or a panel saying why it cannot be shown. */
import { useTranslation } from 'react-i18next';
import type { WidgetScreen } from '../schema/screen.ts';
import { resolveParams } from '../schema/values.ts';
import { useServices } from '../services/context.ts';
import { widgetFor } from '../widgets/api.ts';
import { ScreenProblem } from './ErrorPanel.tsx';
import { useLang, useScreenHost } from './host.ts';
import { viewOf } from './widget-view.ts';

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
