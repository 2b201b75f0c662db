/** A `widget` screen: the registered widget with its props, or a panel saying why it cannot be shown. */
import { useTranslation } from 'react-i18next';
import type { WidgetScreen } from '../schema/screen.ts';
import { resolveParams } from '../schema/values.ts';
import { widgetFor } from '../widgets/registry.ts';
import { ScreenProblem } from './ErrorPanel.tsx';
import { useScreenHost } from './host.ts';

export function WidgetHost({ screen }: { screen: WidgetScreen }) {
  const host = useScreenHost();
  const { t } = useTranslation();
  const found = widgetFor(screen.widget);
  if (found.state === 'missing') return <ScreenProblem title={t('screens.widget.missingTitle', { name: screen.widget })} text={t('screens.widget.missingText')} />;
  if (found.state === 'unknown') return <ScreenProblem title={t('screens.widget.unknownTitle', { name: screen.widget })} />;
  const props = { ...(screen.props ?? {}), ...resolveParams(screen.params, { route: host.params, query: host.query }) };
  const Widget = found.component;
  return <Widget props={props} route={host.params} authority={host.authority} />;
}
