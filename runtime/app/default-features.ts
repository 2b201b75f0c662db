/**
 * The app registers the runtime's screen kinds through the same feature interface a
 * business area uses (runtime/screens/features.ts). The built-in action kinds and cell
 * renders are registered by the modules that define them (actions.tsx, format.tsx) when
 * they load, through the same call: a route loads only the renderers it shows (the
 * dashboard loads neither; docs/architecture.md, "Bundle budget").
 */
import { registerFeature } from '../screens/features.ts';
import { locate } from './data-locator.ts';
import { installDataLocator } from './data-provider.ts';
import { DEFAULT_SCREENS } from '../screens/ScreenView.tsx';
import { installWidgets } from '../widgets/api.ts';
import { WIDGET_MANIFEST } from '../../widgets/manifest.ts';

let registered = false;

/** Once per page (the screens' routes call it before any screen renders); also installs the data provider's locator and the product's widget manifest. */
export function registerDefaultFeatures(): void {
  if (registered) return;
  registered = true;
  registerFeature({ screens: DEFAULT_SCREENS });
  installDataLocator(locate);
  installWidgets(WIDGET_MANIFEST);
}
