/** The `steps` page layout as a lazy view (its own chunk: only wizards load antd's Steps); preload() for tests that render it. */
import { lazyView } from './lazy-view.ts';

export const LazyStepsView = lazyView(() => import('./StepsView.tsx').then((m) => m.StepsView));
