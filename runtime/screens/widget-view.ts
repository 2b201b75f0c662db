/** A widget of the manifest as a lazy component (a widget screen, a form's preview). */
import type { WidgetLoader, WidgetProps } from '../widgets/api.ts';
import { lazyView, type LazyView } from './lazy-view.ts';

// One lazy component per loader, so a widget's chunk is fetched once and its state survives re-renders.
const views = new WeakMap<WidgetLoader, LazyView<WidgetProps>>();

export function viewOf(load: WidgetLoader): LazyView<WidgetProps> {
  let view = views.get(load);
  if (!view) {
    view = lazyView(() => load().then((m) => m.default));
    views.set(load, view);
  }
  return view;
}
