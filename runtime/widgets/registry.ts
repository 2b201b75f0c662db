/**
 * The widget API: bespoke screens (maps, equipment control, planting timelines) are React
 * components registered here by name. A `widget` screen names one of WIDGET_NAMES
 * (runtime/schema/widget-names.ts, which schemas:check enforces); the widget receives the
 * screen's `props` merged with its resolved `params`, plus the host's route parameters.
 * Widgets depend on this module only, never on a renderer's internals.
 */
import type { ComponentType } from 'react';
import { isWidgetName, WIDGET_NAMES, type WidgetName } from '../schema/widget-names.ts';

export interface WidgetProps<P extends Record<string, unknown> = Record<string, unknown>> {
  /** The screen's `props`, with its `params` resolved and added. */
  props: P;
  /** Parameters of the route the widget is shown at. */
  route: Record<string, string | undefined>;
  /** The menu code of that route (element codes like ":control" resolve against it). */
  authority: string;
}

export type WidgetComponent = ComponentType<WidgetProps>;

const implementations = new Map<WidgetName, WidgetComponent>();

/** Provides the implementation of a registered widget name (a widget package calls this once). */
export function provideWidget(name: WidgetName, component: WidgetComponent): void {
  if (!isWidgetName(name)) throw new Error(`"${name}" is not a registered widget name (${WIDGET_NAMES.join(', ')})`);
  implementations.set(name, component);
}

export type WidgetLookup =
  | { state: 'ready'; component: WidgetComponent }
  /** A registered name whose implementation this build does not provide. */
  | { state: 'missing' }
  /** A name outside the registry (only a document that skipped validation can carry one). */
  | { state: 'unknown' };

export function widgetFor(name: string): WidgetLookup {
  if (!isWidgetName(name)) return { state: 'unknown' };
  const component = implementations.get(name);
  return component ? { state: 'ready', component } : { state: 'missing' };
}

export { WIDGET_NAMES, type WidgetName };
