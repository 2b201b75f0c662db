import { collector, type ScreenRule } from '../context.ts';
import { screenChecks } from '../screen-checks.ts';

export const widgetRule: ScreenRule = {
  id: 'widget',
  description: 'Widget screens: the widget is registered; its parameters read what a screen has.',
  check(ctx) {
    const { screen } = ctx;
    if (screen.kind !== 'widget') return [];
    const { widgets, file } = ctx;
    const { problems, add } = collector(file);
    const { checkRefs } = screenChecks(ctx, add);
    if (!widgets.has(screen.widget)) add('/widget', `"${screen.widget}" is not a registered widget (registered: ${[...widgets].join(', ')})`);
    checkRefs(screen.params, '/params', 'screen', undefined, undefined);
    return problems;
  },
};
