/**
 * Names of the bespoke widgets of the product's manifest (widgets/manifest.ts), for the
 * meta-schema and schemas:check, which refuse any other name in a `widget` screen. React-
 * and product-free like the rest of the schema language; tests/unit/widget-manifest.test.ts
 * holds it equal to the manifest's names (a widget added there is added here too).
 */
export const WIDGET_NAMES = ['map', 'equipmentControl', 'plantingTimeline', 'schemaStudio'] as const;
export type WidgetName = (typeof WIDGET_NAMES)[number];

export function isWidgetName(name: string): name is WidgetName {
  return (WIDGET_NAMES as readonly string[]).includes(name);
}
