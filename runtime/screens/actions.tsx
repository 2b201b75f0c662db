/**
 * The action runner (docs/schema-language.md, "Actions"): navigate, openForm, call,
 * export, import and transition, each shown only when gating.ts allows it (element code held, the record's `_can`
 * hints, the condition). A
 * navigation whose parameters cannot all be filled is shown disabled, never sent to a
 * half-filled URL.
 */
import { DownOutlined } from '@ant-design/icons';
import { App as AntApp, Button, Dropdown, Flex, Input, Space, Typography } from 'antd';
import { useContext, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { DataSource } from '../services/contract.ts';
import { useServices } from '../services/context.ts';
import { isHttpError } from '../http/errors.ts';
import type { Action, CallAction, ExportFormat, FormMode, ImportAction, NavigateTarget, OpenFormAction, PromptField, TransitionAction } from '../schema/screen.ts';
import { fillRoute, resolveRoute } from '../schema/screen.ts';
import { formatText, isI18nText, textOf } from '../schema/texts.ts';
import { resolveParams, resolveValue, type ValueContext } from '../schema/values.ts';
import { notifyResourceChanged } from './data-events.ts';
import { transitionRequest } from './endpoints.ts';
import { useActionFilter, useElementGate, useLang, useScreenHost, type ScreenHost } from './host.ts';
import { SchemaIcon } from './icons.tsx';
import { FormOverlayContext, type FormRequest } from './form-overlay.ts';
import { actionHandler, registerFeature, type ActionEnv, type Feature } from './features.ts';

export { FormOverlayContext, type FormRequest } from './form-overlay.ts';

export interface ActionScope {
  ctx: ValueContext;
  /** The screen's resource: call actions on it announce the change. */
  resource?: string;
  /** Reload what the actions act on. */
  refresh?: () => void;
  /** A table's export of its current query. */
  exportQuery?: (format: ExportFormat) => Promise<void>;
  /** A table's import dialog (ImportDialog.tsx). */
  openImport?: (action: ImportAction) => void;
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
  const { data } = useServices();
  const { modal, message } = AntApp.useApp();
  const openForm = useContext(FormOverlayContext);
  const { t } = useTranslation();
  const env: ActionEnv = { scope, host, lang, t, navigate, data, openForm: openForm ?? undefined, modal, message };

  // Each kind's handler comes from the feature registry (features.ts); an unknown kind is never offered.
  const available = (action: Action): boolean => actionHandler(action.kind)?.available(action as never, env) ?? false;
  const run = async (action: Action) => {
    await actionHandler(action.kind)?.run(action as never, env);
  };
  return { run, available };
}

/** The row or record the actions act on. */
function recordOf(scope: ActionScope): Record<string, unknown> | undefined {
  return (scope.ctx.row ?? scope.ctx.record) as Record<string, unknown> | undefined;
}

const callSource = (action: CallAction, scope: ActionScope): DataSource => ({ endpoint: action.endpoint, ctx: scope.ctx, screenResource: scope.resource });

/** The handlers of the built-in action kinds, registered by the app (runtime/app/default-features.ts). */
export const DEFAULT_ACTIONS: Feature['actions'] = {
  navigate: {
    available: (action, { scope, host }) => targetUrl(action, scope.ctx, host) !== null,
    run: (action, { scope, host, navigate }) => {
      const url = targetUrl(action, scope.ctx, host);
      // A page served outside the console opens in a tab of its own; the console stays.
      if (url && action.document) window.open(url, '_blank', 'noopener');
      else if (url) navigate(url);
    },
  },
  openForm: {
    available: (action, { host, openForm }) => !!openForm && !!host.registry.screen(action.screen),
    run: (action, { scope, openForm }) => openForm?.(formRequest(action, scope)),
  },
  call: {
    available: (action, { scope, host, data }) => data.key({ registry: host.registry, source: callSource(action, scope) }) !== null,
    run: runCall,
  },
  export: {
    available: (_action, { scope }) => !!scope.exportQuery,
    run: (action, { scope }) => scope.exportQuery?.(action.formats[0]),
  },
  import: {
    available: (action, { scope, host }) => {
      const name = action.resource ?? scope.resource;
      return !!scope.openImport && !!name && !!host.registry.resource(name);
    },
    run: (action, { scope }) => scope.openImport?.(action),
  },
  transition: {
    available: (action, { scope, host }) => transitionRequest(action, recordOf(scope), host.registry, scope.resource) !== null,
    run: runTransition,
  },
};
registerFeature({ actions: DEFAULT_ACTIONS });

async function runCall(action: CallAction, env: ActionEnv): Promise<void> {
  const { scope, host, lang, t, data, modal, message } = env;
  if (data.key({ registry: host.registry, source: callSource(action, scope) }) === null) return;
  let answer: string | undefined;
  if (action.prompt) {
    const fields = (scope.ctx.row ?? scope.ctx.record ?? {}) as Record<string, unknown>;
    const got = await askPrompt(modal, action.prompt, {
      title: textOf(action.label, lang),
      text: action.confirm ? formatText(action.confirm, lang, fields) : undefined,
      lang,
      okText: t('screens.confirm'),
      cancelText: t('screens.cancel'),
      requiredText: t('screens.prompt.required'),
      invalidText: t('screens.prompt.invalid'),
      danger: action.danger,
    });
    if (got === null) return;
    answer = got;
  } else if (action.confirm) {
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
  const body = action.body || action.prompt ? { ...resolveParams(action.body, scope.ctx), ...(action.prompt ? { [action.prompt.field]: answer } : {}) } : undefined;
  try {
    const reply = await data.mutate({ registry: host.registry, source: callSource(action, scope), body });
    void message.success(action.success ? textOf(action.success, lang) : reply.message || t('screens.done'));
    const changed = 'operation' in action.endpoint ? (action.endpoint.resource ?? scope.resource) : scope.resource;
    if (action.refresh !== false) {
      scope.refresh?.();
      notifyResourceChanged(changed);
    }
    for (const name of action.announces ?? []) if (name !== changed || action.refresh === false) notifyResourceChanged(name);
    if (action.then) {
      // The reply's record (a copy just made, say) is what the next screen opens.
      const url = targetUrl(action.then, { ...scope.ctx, record: (reply.data ?? undefined) as Record<string, unknown> | undefined }, host);
      // A page the server serves outside the console (a print sheet the call made a ticket for) opens in a tab of its own.
      if (url && action.then.document) window.open(url, '_blank', 'noopener');
      else if (url) env.navigate(url);
    }
  } catch (e) {
    // The client has shown the catalogue's message already; only unexplained failures need one here.
    if (isHttpError(e) && (e.kind === 'timeout' || e.kind === 'network' || e.kind === 'unexpected')) void message.error(t('screens.callFailed'));
  }
}

/** A declared transition of the row or record: the reason asked when it takes one, else the confirmation if any. */
async function runTransition(action: TransitionAction, env: ActionEnv): Promise<void> {
  const { scope, host, lang, t, data, modal, message } = env;
  const fields = recordOf(scope) ?? {};
  const request = transitionRequest(action, fields, host.registry, scope.resource);
  if (!request) return;
  const body: Record<string, unknown> = { ...request.body };
  if (request.declared.reason) {
    const reasonWord = t('screens.transitionReason');
    const prompt: PromptField = {
      field: 'reason',
      label: action.reasonLabel ?? { zh: reasonWord, en: reasonWord, es: reasonWord },
      required: request.declared.reason.required === true,
      multiline: true,
      maxLength: 500,
    };
    const got = await askPrompt(modal, prompt, {
      title: textOf(action.label, lang),
      text: action.confirm ? formatText(action.confirm, lang, fields) : undefined,
      lang,
      okText: t('screens.confirm'),
      cancelText: t('screens.cancel'),
      requiredText: t('screens.prompt.required'),
      invalidText: t('screens.prompt.invalid'),
      danger: action.danger,
    });
    if (got === null) return;
    if (got) body.reason = got;
  } else if (action.confirm) {
    const ok = await modal.confirm({
      title: textOf(action.label, lang),
      content: formatText(action.confirm, lang, fields),
      okText: t('screens.confirm'),
      cancelText: t('screens.cancel'),
      okButtonProps: { danger: action.danger },
    });
    if (!ok) return;
  }
  const resource = action.resource ?? scope.resource!;
  try {
    const reply = await data.mutate({ registry: host.registry, source: { resource, transition: action.transition, id: fields.id }, body });
    void message.success(action.success ? textOf(action.success, lang) : reply.message || t('screens.done'));
  } catch (e) {
    // The client has shown the server's refusal (a state changed meanwhile, a stale version); only unexplained failures need one here.
    if (isHttpError(e) && (e.kind === 'timeout' || e.kind === 'network' || e.kind === 'unexpected')) void message.error(t('screens.callFailed'));
  }
  // Refreshed either way: a refusal usually means the record changed meanwhile.
  scope.refresh?.();
  notifyResourceChanged(resource);
}

type ModalApi = ReturnType<typeof AntApp.useApp>['modal'];

interface PromptTexts {
  title: string;
  text?: string;
  lang: Parameters<typeof textOf>[1];
  okText: string;
  cancelText: string;
  requiredText: string;
  invalidText: string;
  danger?: boolean;
}

/** Asks for the prompt's value in a confirmation dialog; null when cancelled. */
function askPrompt(modal: ModalApi, prompt: PromptField, texts: PromptTexts): Promise<string | null> {
  return new Promise((resolve) => {
    const state = { value: '', touched: false, refresh: () => undefined as void };
    const problem = () => {
      const v = state.value.trim();
      if (!v) return prompt.required === false ? null : texts.requiredText;
      if (prompt.pattern && !new RegExp(prompt.pattern).test(v)) return texts.invalidText;
      return null;
    };
    modal.confirm({
      title: texts.title,
      icon: null,
      okText: texts.okText,
      cancelText: texts.cancelText,
      okButtonProps: { danger: texts.danger },
      content: <PromptInput prompt={prompt} texts={texts} state={state} problem={problem} />,
      // With `close` declared, antd leaves closing to us: a problem keeps the dialog open with
      // its message under the field. (A rejected promise did the same but surfaced as an
      // uncaught page error: issue 29.)
      onOk: (close: () => void) => {
        state.touched = true;
        state.refresh();
        if (problem()) return;
        resolve(state.value.trim());
        close();
      },
      onCancel: () => resolve(null),
    });
  });
}

function PromptInput({ prompt, texts, state, problem }: { prompt: PromptField; texts: PromptTexts; state: { value: string; touched: boolean; refresh: () => void }; problem: () => string | null }) {
  const [, setTick] = useState(0);
  state.refresh = () => setTick((n) => n + 1);
  const label = textOf(prompt.label, texts.lang);
  const error = state.touched ? problem() : null;
  const common = {
    'aria-label': label,
    'aria-invalid': !!error,
    maxLength: prompt.maxLength,
    status: error ? ('error' as const) : undefined,
    autoFocus: true,
    onChange: (e: { target: { value: string } }) => {
      state.value = e.target.value;
      state.refresh();
    },
  };
  return (
    <Flex vertical gap={8}>
      {texts.text ? <Typography.Text>{texts.text}</Typography.Text> : null}
      <Typography.Text strong>{label}</Typography.Text>
      {prompt.multiline ? <Input.TextArea rows={3} {...common} /> : prompt.secret ? <Input.Password {...common} /> : <Input {...common} />}
      {error ? (
        <Typography.Text type="danger" role="alert">
          {error}
        </Typography.Text>
      ) : null}
    </Flex>
  );
}

function formRequest(action: OpenFormAction, scope: ActionScope): FormRequest {
  const params: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(resolveParams(action.params, scope.ctx))) params[k] = v === undefined || v === null ? undefined : String(v);
  const initial: Record<string, unknown> = {};
  for (const [k, ref] of Object.entries(action.initial ?? {})) initial[k] = resolveValue(ref, scope.ctx);
  const subject = action.subject === undefined ? undefined : resolveValue(action.subject, scope.ctx);
  return {
    screen: action.screen,
    mode: action.mode,
    container: action.container ?? 'drawer',
    width: action.width,
    params,
    initial,
    subject: subject === undefined || subject === null || subject === '' ? undefined : isI18nText(subject) ? subject : String(subject),
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
  /** Buttons shown inline; the rest go into a «more» menu. Default: 2 for rows, all in a toolbar. */
  inline?: number;
}

/** Row actions shown as buttons; the others are in the row's «more» menu (docs/screens.md). */
export const ROW_INLINE_ACTIONS = 2;

/** A row of buttons for the actions the user may run here. */
export function ActionButtons({ actions, scope, data, batch, variant = 'toolbar', extra, inline }: ActionButtonsProps) {
  const lang = useLang();
  const permitted = useActionFilter(scope.resource);
  const gate = useElementGate(scope.resource);
  const { run, available } = useRunAction(scope);
  const { t } = useTranslation();
  const shown = (actions ?? []).filter((a) => (batch ? gate(a) : permitted(a, data ?? {})));
  if (!shown.length && !extra) return null;
  const small = variant === 'row';
  const limit = inline ?? (small ? ROW_INLINE_ACTIONS : Infinity);
  // Never more than `limit` buttons in a row, so the action column keeps one width (issue 9, item 6).
  const cut = Math.min(limit, shown.length);
  const overflow = shown.slice(cut);
  return (
    <Space size={small ? 0 : 8} wrap={!small}>
      {shown.slice(0, cut).map((a, i) => {
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
              <Button icon={a.icon ? <SchemaIcon name={a.icon} /> : undefined} disabled={disabled} size={small ? 'small' : undefined}>
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
            icon={a.icon ? <SchemaIcon name={a.icon} /> : undefined}
            disabled={disabled}
            onClick={() => void run(a)}
          >
            {label}
          </Button>
        );
      })}
      {overflow.length ? (
        <Dropdown
          trigger={['click']}
          menu={{
            items: overflow.map((a, i) => ({
              key: String(i),
              label: textOf(a.label, lang),
              icon: <SchemaIcon name={a.icon} />,
              danger: a.danger,
              disabled: !available(a) || (batch ? batch.length === 0 || !batch.every((row) => permitted(a, row)) : false),
            })),
            onClick: ({ key }) => void run(overflow[Number(key)]),
          }}
        >
          <Button type={small ? 'link' : 'default'} size={small ? 'small' : undefined} data-testid="more-actions">
            {t('screens.table.more')}
            <DownOutlined aria-hidden />
          </Button>
        </Dropdown>
      ) : null}
      {extra}
    </Space>
  );
}
