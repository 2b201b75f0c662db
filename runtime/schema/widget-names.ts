/**
 * Names of the bespoke widgets registered with the runtime's widget API. A `widget`
 * screen may name only these; schemas:check refuses any other. The runtime's widget
 * registry registers exactly this list (a widget added there is added here first).
 */
export const WIDGET_NAMES = ['map', 'equipmentControl', 'plantingTimeline'] as const;
export type WidgetName = (typeof WIDGET_NAMES)[number];

export function isWidgetName(name: string): name is WidgetName {
  return (WIDGET_NAMES as readonly string[]).includes(name);
}
