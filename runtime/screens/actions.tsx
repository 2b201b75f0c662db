/**
 * The action runner (docs/schema-language.md, "Actions"): navigate, openForm, call and
 * export, each shown only when its element code is held and its condition holds. A
 * navigation whose parameters cannot all be filled is shown disabled, never sent to a
 * half-filled URL.
 */
import { App as AntApp, Button, Dropdown, Space } from 'antd';
import { createContext, useContext, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useServices } from '../app/context.ts';
import { isHttpError } from '../http/errors.ts';
import type { Action, CallAction, ExportFormat, FormMode, NavigateTarget, OpenFormAction } from '../schema/screen.ts';
import { fillRoute, resolveRoute } from '../schema/screen.ts';
import { formatText, textOf } from '../schema/texts.ts';
import { resolveParams, resolveValue, type ValueContext } from '../schema/values.ts';
import { notifyResourceChanged } from './data-events.ts';
import { resolveEndpoint } from './endpoints.ts';
import { useActionFilter, useElementGate, useLang, useScreenHost, type ScreenHost } from './host.ts';
import { SchemaIcon } from './icons.tsx';

/** A form opened by an action, in a drawer or a modal over the screen that opened it. */
export interface FormRequest {
  screen: string;
  mode: FormMode;
  container: 'drawer' | 'modal';
  width?: number;
  /** Route parameters of the form: its id parameter, resolved. */
  params: Record<string, string | undefined>;
  initial: Record<string, unknown>;
  /** Run after a successful submit. */
  onSaved?: () => void;
}

export const FormOverlayContext = createContext<((req: FormRequest) => void) | null>(null);

export interface ActionScope {
  ctx: ValueContext;
  /** The screen's resource: call actions on it announce the change. */
  resource?: string;
  /** Reload what the actions act on. */
  refresh?: () => void;
  /** A table's export of its current query. */
  exportQuery?: (format: ExportFormat) => Promise<void>;
}

/** The URL a navigation target leads to from this host, or null when a parameter is missing. */
export function targetUrl(target: NavigateTarget, ctx: ValueContext, host: Pick<ScreenHost, 'routePattern'>): string | null {
  const pattern = resolveRoute(target.to, host.routePattern);
  const path = fillRoute(pattern, resolveParams(target.params, ctx));
  if (!path) return null;
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(resolveParams(target.query, ctx))) if (v !== undefined && v !== null && v !== '') search.append(k, String(v));
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

export function useRunAction(scope: ActionScope): { run: (action: Action) => Promise<void>; available: (action: Action) => boolean } {
  const host = useScreenHost();
  const lang = useLang();
  const navigate = useNavigate();
  const { http } = useServices();
  const { modal, message } = AntApp.useApp();
  const openForm = useContext(FormOverlayContext);
  const { t } = useTranslation();

  const available = (action: Action): boolean => {
    if (action.kind === 'navigate') return targetUrl(action, scope.ctx, host) !== null;
    if (action.kind === 'openForm') return !!openForm && !!host.registry.screen(action.screen);
    if (action.kind === 'call') return resolveEndpoint(action.endpoint, scope.ctx, host.registry, scope.resource) !== null;
    return !!scope.exportQuery;
  };

  const call = async (action: CallAction) => {
    const endpoint = resolveEndpoint(action.endpoint, scope.ctx, host.registry, scope.resource);
    if (!endpoint) return;
    if (action.confirm) {
      const fields = (scope.ctx.row ?? scope.ctx.record ?? {}) as Record<string, unknown>;
      const ok = await modal.confirm({
        title: textOf(action.label, lang),
        content: formatText(action.confirm, lang, fields),
        okText: t('screens.confirm'),
        cancelText: t('screens.cancel'),
        okButtonProps: { danger: action.danger },
      });
      if (!ok) return;
    }
    const body = action.body ? resolveParams(action.body, scope.ctx) : undefined;
    try {
      const env = await http.request({ method: endpoint.method, url: endpoint.url, body });
      void message.success(action.success ? textOf(action.success, lang) : env.message || t('screens.done'));
      const changed = 'operation' in action.endpoint ? (action.endpoint.resource ?? scope.resource) : scope.resource;
      if (action.refresh !== false) {
        scope.refresh?.();
        notifyResourceChanged(changed);
      }
    } catch (e) {
      // The client has shown the catalogue's message already; only unexplained failures need one here.
      if (isHttpError(e) && (e.kind === 'timeout' || e.kind === 'network' || e.kind === 'unexpected')) void message.error(t('screens.callFailed'));
    }
  };

  const run = async (action: Action) => {
    switch (action.kind) {
      case 'navigate': {
        const url = targetUrl(action, scope.ctx, host);
        if (url) navigate(url);
        return;
      }
      case 'openForm':
        openForm?.(formRequest(action, scope));
        return;
      case 'call':
        return call(action);
      case 'export':
        return scope.exportQuery?.(action.formats[0]);
    }
  };
  return { run, available };
}

function formRequest(action: OpenFormAction, scope: ActionScope): FormRequest {
  const params: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(resolveParams(action.params, scope.ctx))) params[k] = v === undefined || v === null ? undefined : String(v);
  const initial: Record<string, unknown> = {};
  for (const [k, ref] of Object.entries(action.initial ?? {})) initial[k] = resolveValue(ref, scope.ctx);
  return {
    screen: action.screen,
    mode: action.mode,
    container: action.container ?? 'drawer',
    width: action.width,
    params,
    initial,
    onSaved: scope.refresh,
  };
}

export interface ActionButtonsProps {
  actions: Action[] | undefined;
  scope: ActionScope;
  /** What `when` tests: the row, the record, or each selected row (batch). */
  data?: unknown;
  batch?: unknown[];
  variant?: 'toolbar' | 'row';
  extra?: ReactNode;
}

/** A row of buttons for the actions the user may run here. */
export function ActionButtons({ actions, scope, data, batch, variant = 'toolbar', extra }: ActionButtonsProps) {
  const lang = useLang();
  const permitted = useActionFilter();
  const gate = useElementGate();
  const { run, available } = useRunAction(scope);
  const { t } = useTranslation();
  const shown = (actions ?? []).filter((a) => (batch ? gate(a) : permitted(a, data ?? {})));
  if (!shown.length && !extra) return null;
  const small = variant === 'row';
  return (
    <Space size={small ? 0 : 8} wrap>
      {shown.map((a, i) => {
        const label = textOf(a.label, lang);
        const disabled = !available(a) || (batch ? batch.length === 0 || !batch.every((row) => permitted(a, row)) : false);
        if (a.kind === 'export' && a.formats.length > 1) {
          return (
            <Dropdown
              key={i}
              disabled={disabled}
              menu={{
                items: a.formats.map((f) => ({ key: f, label: t(`screens.export.${f}`) })),
                onClick: ({ key }) => void scope.exportQuery?.(key as ExportFormat),
              }}
            >
              <Button icon={<SchemaIcon name={a.icon} />} disabled={disabled} size={small ? 'small' : undefined}>
                {label}
              </Button>
            </Dropdown>
          );
        }
        return (
          <Button
            key={i}
            type={small ? 'link' : a.primary ? 'primary' : 'default'}
            danger={a.danger}
            size={small ? 'small' : undefined}
            icon={<SchemaIcon name={a.icon} />}
            disabled={disabled}
            onClick={() => void run(a)}
          >
            {label}
          </Button>
        );
      })}
      {extra}
    </Space>
  );
}
