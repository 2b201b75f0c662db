/**
 * The product's bespoke widgets (DESIGN.md, "Layout"): name → loader of the widget's
 * module, whose default export implements runtime/widgets/api.ts. A `widget` screen may
 * name only these (runtime/schema/widget-names.ts lists the same names for the
 * meta-schema and schemas:check; tests/unit/widget-manifest.test.ts keeps them equal).
 *
 * None is implemented yet: the three names are reserved for the map, equipment control
 * and planting timeline of the business areas to come, and a screen naming one shows
 * that its widget is not part of this version. A widget is added as
 * `map: () => import('./map/MapWidget.tsx')`.
 */
import type { WidgetManifest } from '../runtime/widgets/api.ts';

export const WIDGET_MANIFEST = {
  map: null,
  equipmentControl: null,
  plantingTimeline: () => import('./planting-timeline/index.tsx'),
} as const satisfies WidgetManifest;
