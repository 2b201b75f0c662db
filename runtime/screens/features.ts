/**
 * The one extension interface of the renderers (docs/architecture.md, "Runtime layers"):
 * screen kinds, action kinds and cell renders are looked up here by name instead of
 * being switched on. The app registers the defaults (runtime/app/default-features.ts); a
 * business area adds its own with one `registerFeature` call, e.g. an action kind:
 *
 *   registerFeature({ actions: { transition: { available: (a, env) => …, run: async (a, env) => … } } });
 *
 * A name registered twice takes the last registration (a feature may replace a default).
 */
import type { App as AntApp } from 'antd';
import type { ComponentType, ReactNode } from 'react';
import type { NavigateFunction } from 'react-router-dom';
import type { Action, Screen } from '../schema/screen.ts';
import type { Lang } from '../schema/texts.ts';
import type { DataProvider } from '../services/contract.ts';
import type { FormRequest } from './form-overlay.ts';
import type { ResolvedOption } from './options.ts';
import type { ScreenHost } from './host.ts';
import type { ActionScope } from './actions.tsx';

type ByKind<U extends { kind: string }, K extends string> = Extract<U, { kind: K }>;

/** A renderer of one screen kind: shown in the screen's host (useScreenHost). */
export type ScreenRenderer<S extends Screen = Screen> = ComponentType<{ screen: S }>;

/** What an action handler may use: the scope the action is offered in and the console's means. */
export interface ActionEnv {
  scope: ActionScope;
  host: ScreenHost;
  lang: Lang;
  t: (key: string, options?: Record<string, unknown>) => string;
  navigate: NavigateFunction;
  data: DataProvider;
  /** Opens a form in a drawer or a modal; absent where no overlay host is mounted. */
  openForm?: (request: FormRequest) => void;
  /** antd's Modal and message of the current frame. */
  modal: ReturnType<typeof AntApp.useApp>['modal'];
  message: ReturnType<typeof AntApp.useApp>['message'];
}

/** One action kind: whether an action can be run here (its target resolvable), and running it. */
export interface ActionHandler<A extends Action = Action> {
  available(action: A, env: ActionEnv): boolean;
  run(action: A, env: ActionEnv): Promise<void> | void;
}

export interface CellFormat {
  precision?: number;
  lang?: Lang;
  unit?: string;
  /** The column's or field's title in the user's language: an image's alternative text. */
  label?: string;
}

/**
 * One cell render (a column's or a detail field's `render`): the value's text (shown,
 * exported, used as a tooltip), and a cell of its own when text is not enough.
 */
export interface CellRender {
  text?(value: unknown, fmt: CellFormat, yesNo: [string, string]): string;
  cell?(props: { value: unknown; fmt: CellFormat; options: ResolvedOption[] | null }): ReactNode;
}

export interface Feature {
  screens?: { [K in Screen['kind']]?: ScreenRenderer<ByKind<Screen, K>> } & Record<string, ScreenRenderer<never> | undefined>;
  actions?: { [K in Action['kind']]?: ActionHandler<ByKind<Action, K>> } & Record<string, ActionHandler<never> | undefined>;
  renders?: Record<string, CellRender>;
}

const screens = new Map<string, ScreenRenderer<never>>();
const actions = new Map<string, ActionHandler<never>>();
const renders = new Map<string, CellRender>();

export function registerFeature(feature: Feature): void {
  for (const [k, v] of Object.entries(feature.screens ?? {})) if (v) screens.set(k, v as ScreenRenderer<never>);
  for (const [k, v] of Object.entries(feature.actions ?? {})) if (v) actions.set(k, v as ActionHandler<never>);
  for (const [k, v] of Object.entries(feature.renders ?? {})) renders.set(k, v);
}

export function screenRenderer<S extends Screen>(kind: S['kind']): ScreenRenderer<S> | undefined {
  return screens.get(kind) as ScreenRenderer<S> | undefined;
}

export function actionHandler<A extends Action>(kind: A['kind']): ActionHandler<A> | undefined {
  return actions.get(kind) as ActionHandler<A> | undefined;
}

export function cellRender(render: string | undefined): CellRender | undefined {
  return render ? renders.get(render) : undefined;
}

/** Every registered name (tests compare them with the schema language's lists). */
export function registeredNames(): { screens: string[]; actions: string[]; renders: string[] } {
  return { screens: [...screens.keys()], actions: [...actions.keys()], renders: [...renders.keys()] };
}
