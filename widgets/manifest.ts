/**
 * The product's bespoke widgets (DESIGN.md, "Layout"): name → loader of the widget's
 * module, whose default export implements runtime/widgets/api.ts. A `widget` screen may
 * name only these (runtime/schema/widget-names.ts lists the same names for the
 * meta-schema and schemas:check; tests/unit/widget-manifest.test.ts keeps them equal).
 *
 * A name whose loader is null is reserved for a business area to come (equipment
 * control), and a screen naming it shows that its widget is not part of this version.
 * A widget is added as `name: () => import('./name/index.tsx')`.
 */
import type { WidgetManifest } from '../runtime/widgets/api.ts';

export const WIDGET_MANIFEST = {
  map: () => import('./map/index.tsx'),
  equipmentControl: () => import('./equipment-control/index.tsx'),
  plantingTimeline: () => import('./planting-timeline/index.tsx'),
  // The schema studio: the runtime's own tooling shown through the widget interface (docs/studio.md).
  schemaStudio: () => import('./schema-studio/index.tsx'),
} as const satisfies WidgetManifest;
