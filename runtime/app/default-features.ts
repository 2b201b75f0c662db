/**
 * The app registers the runtime's own screen kinds, action kinds and cell renders through
 * the same feature interface a business area uses (runtime/screens/features.ts).
 */
import { DEFAULT_ACTIONS } from '../screens/actions.tsx';
import { registerFeature } from '../screens/features.ts';
import { DEFAULT_RENDERS } from '../screens/format.tsx';
import { DEFAULT_SCREENS } from '../screens/ScreenView.tsx';

let registered = false;

/** Once per page (the screens' routes call it before any screen renders). */
export function registerDefaultFeatures(): void {
  if (registered) return;
  registered = true;
  registerFeature({ screens: DEFAULT_SCREENS, actions: DEFAULT_ACTIONS, renders: DEFAULT_RENDERS });
}
