/**
 * One form for add, edit and show (spec §2.4): rjsf with the antd theme, validated in the
 * browser by ajv against the resource's record schema (the schema the server validates
 * with), in sections and columns. Edit and show load the record; add starts from the
 * action's initial values and the schema's defaults; show is read-only. Submitting
 * creates (POST) or updates (PUT with the version read); the server's field errors
 * (40001, `data.errors`) are shown on their fields. Leaving with unsaved changes asks
 * first.
 */
import { Alert, App as AntApp, Button, Flex, Result, Skeleton, Space, theme } from 'antd';
import { withTheme } from '@rjsf/core';
import { Theme as AntdTheme } from '@rjsf/antd';
import { formValidator } from './form-validator.ts';
import { englishStringTranslator, TranslatableString, type Experimental_DefaultFormStateBehavior, type ErrorSchema, type ArrayFieldTemplateProps, type FieldTemplateProps, type IconButtonProps, type RJSFSchema } from '@rjsf/utils';
import { useCallback, useEffect, useMemo, useRef, useState, type ComponentType } from 'react';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { DataSource } from '../services/contract.ts';
import { elementCodesAtom, menuCodesAtom } from '../session/atoms.ts';
import { useServices } from '../services/context.ts';
import { isHttpError } from '../http/errors.ts';
import type { FormMode, FormScreen } from '../schema/screen.ts';
import { localizeErrors } from '../schema/messages.ts';
import type { Lang } from '../schema/texts.ts';
import { pluck, type ValueContext } from '../schema/values.ts';
import { ActionButtons, targetUrl } from './actions.tsx';
import { notifyResourceChanged } from './data-events.ts';
import { buildForm, conditionsKey, crossFieldErrors, enumeratedFields, formModel, mergeErrorSchemas, serverErrors, submitBody, typedInitial } from './form-schema.ts';
import { formWidgets, lineItemsArrayTemplate, SectionsTemplate, type FormContext } from './form-widgets.tsx';
import { previewRequires, unreadyFields } from './form-preview.ts';
import { FormPreview } from './FormPreview.tsx';
import { useLang, useScreenHost } from './host.ts';
import { useLeaveGuard } from './leave-guard.ts';
import { useOptionsList } from './options.ts';
import { useReportRecord } from './record-report.ts';
import { useResourceQuery } from './use-resource-query.ts';
import { ReadView, readSections } from './ReadView.tsx';

/** Modes shown as descriptions (ReadView) rather than as a form. */
const READ_MODES: ReadonlySet<FormMode> = new Set(['show']);

const ThemedForm = withTheme<Record<string, unknown>, RJSFSchema>(AntdTheme);

/**
 * rjsf fills an array up to its `minItems` with empty entries. Right for line items (a
 * list of rows starts with its first row), wrong for the values of a multi-select: the
 * task's assignees (`minItems: 1`) showed an empty tag beside the person chosen and the
 * save failed on it. An array of scalars starts empty; `required`/`minItems` still speak.
 */
const DEFAULT_FORM_STATE: Experimental_DefaultFormStateBehavior = {
  arrayMinItems: { populate: 'all', computeSkipPopulate: (_validator, schema) => (schema.items as RJSFSchema | undefined)?.type !== 'object' },
};
const AntdFieldTemplate = AntdTheme.templates!.FieldTemplate as ComponentType<FieldTemplateProps<Record<string, unknown>, RJSFSchema>>;

/**
 * antd's field template shows a field's help text instead of its errors; an error says
 * more (the crops' "not less than the shortest" hint hid the very rule it announces), so
 * while a field has errors they take the help's place, and the help returns once fixed.
 */
function FieldTemplate(props: FieldTemplateProps<Record<string, unknown>, RJSFSchema>) {
  return <AntdFieldTemplate {...props} rawHelp={props.rawErrors?.length ? undefined : props.rawHelp} />;
}

/**
 * antd's row buttons are icons with a `title`: their accessible name was the icon's
 * ("plus-circle", "delete"). Each is named by its title, in the console language.
 */
const ROW_BUTTON_NAMES = {
  AddButton: TranslatableString.AddItemButton,
  CopyButton: TranslatableString.CopyButton,
  MoveDownButton: TranslatableString.MoveDownButton,
  MoveUpButton: TranslatableString.MoveUpButton,
  RemoveButton: TranslatableString.RemoveButton,
} as const;
const ButtonTemplates = Object.fromEntries(
  Object.entries(ROW_BUTTON_NAMES).map(([name, key]) => {
    const Antd = AntdTheme.templates!.ButtonTemplates![name as keyof typeof ROW_BUTTON_NAMES] as ComponentType<IconButtonProps<Record<string, unknown>, RJSFSchema>>;
    const Named = (props: IconButtonProps<Record<string, unknown>, RJSFSchema>) => <Antd {...props} aria-label={props.registry.translateString(key)} />;
    return [name, Named];
  }),
);
const ArrayFieldTemplate = lineItemsArrayTemplate(AntdTheme.templates!.ArrayFieldTemplate as ComponentType<ArrayFieldTemplateProps>);
const templates = { ObjectFieldTemplate: SectionsTemplate, ArrayFieldTemplate, FieldTemplate, ButtonTemplates };

/** rjsf's own button titles (line items: add, remove, move, copy) in the console language. */
const ROW_BUTTONS: Partial<Record<TranslatableString, string>> = {
  [TranslatableString.AddButton]: 'screens.form.lineItems.addRow',
  [TranslatableString.AddItemButton]: 'screens.form.lineItems.addRow',
  [TranslatableString.RemoveButton]: 'screens.form.lineItems.removeRow',
  [TranslatableString.MoveUpButton]: 'screens.form.lineItems.moveUp',
  [TranslatableString.MoveDownButton]: 'screens.form.lineItems.moveDown',
  [TranslatableString.CopyButton]: 'screens.form.lineItems.copyRow',
};

export interface FormViewProps {
  screen: FormScreen;
  mode: FormMode;
  /** The record id (edit, show). */
  id?: string;
  /** Field values in add mode. */
  initial?: Record<string, unknown>;
  /** Leave the form: after a save (`saved`) or on cancel. */
  onDone: (saved: boolean) => void;
  /** Told whenever the form becomes dirty or clean (a drawer asks before closing). */
  onDirtyChange?: (dirty: boolean) => void;
  /**
   * A routed form's way to a page after a save (the screen's `afterSubmit` target): the
   * form's tab closes and the page takes the form's place in history, so that «返回» there
   * leads where the user came from, not to the form again. Absent: a plain navigation.
   */
  onSavedTo?: (url: string) => void;
}

type Data = Record<string, unknown>;

export function FormView({ screen, mode, id, initial, onDone, onDirtyChange, onSavedTo }: FormViewProps) {
  const { token } = theme.useToken();
  const host = useScreenHost();
  const lang = useLang();
  const { t } = useTranslation();
  const { data: dataProvider } = useServices();
  const { message } = AntApp.useApp();
  const navigate = useNavigate();
  const doc = screen.resource ? host.registry.resource(screen.resource) : undefined;
  // A resource's record, or the form's own record schema (forms over calls of their own).
  const model = useMemo(() => formModel(screen, doc), [screen, doc]);

  const [loaded, setLoaded] = useState<Data | null>(null);
  const start = useMemo(() => typedInitial(initial, model?.record.properties), [initial, model]);
  const [data, setData] = useState<Data>(() => ({ ...start }));
  const [baseline, setBaseline] = useState<string>(() => stableKey({ ...start }));
  // Whether the user changed a field since the record loaded (rjsf's own changes do not count).
  const touched = useRef(false);
  const [extraErrors, setExtraErrors] = useState<ErrorSchema | undefined>(undefined);
  const [otherErrors, setOtherErrors] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);

  const ctxBase = useMemo<ValueContext>(() => ({ route: { ...host.params, [screen.idParam ?? 'id']: id }, query: host.query }), [host.params, host.query, screen.idParam, id]);

  const recordSource = useMemo<DataSource | null>(() => {
    if (mode === 'add' || !model) return null;
    if (screen.endpoints?.load) return { endpoint: screen.endpoints.load, ctx: ctxBase, screenResource: screen.resource };
    return doc ? { resource: doc.name, operation: 'read', id } : null;
  }, [mode, model, screen.endpoints, screen.resource, ctxBase, doc, id]);
  const recordQuery = useResourceQuery<Data | null>(id ? recordSource : null, {
    initiallyLoading: mode !== 'add',
    onData: (reply) => {
      const record = reply ?? {};
      setLoaded(record);
      const own: Data = {};
      const sources = new Map(screen.sections.flatMap((s) => s.fields.filter((f) => f.source).map((f) => [f.field, f.source!] as const)));
      for (const k of Object.keys(model!.record.properties)) {
        const v = sources.has(k) ? pluck(record, sources.get(k)!) : record[k];
        if (v !== undefined && v !== null) own[k] = v;
      }
      setData(own);
      touched.current = false;
      setBaseline(stableKey(own));
    },
  });
  const reload = recordQuery.refresh;
  const loading = recordQuery.loading;
  // A record that cannot be named (no id, an endpoint missing a parameter) is not asked for.
  const noRecord = mode !== 'add' && !!model && (!recordSource || !id || recordQuery.unresolvable);
  const loadFailure = noRecord ? t('screens.form.noRecord') : recordQuery.failure;

  useReportRecord(loaded);
  const enumerated = useMemo(() => enumeratedFields(screen, model), [screen, model]);
  const ctx = useMemo<ValueContext>(() => ({ ...ctxBase, record: data }), [ctxBase, data]);
  const optionLists = useOptionsList(
    useMemo(() => enumerated.map((x) => ({ e: x.e, prop: x.prop })), [enumerated]),
    ctx,
  );
  const choices = useMemo(() => new Map(enumerated.map((x, i) => [x.field.field, optionLists[i]])), [enumerated, optionLists]);
  const whenKey = conditionsKey(screen, data);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- data matters only through the conditions' outcomes
  const menus = useAtomValue(menuCodesAtom);
  const elements = useAtomValue(elementCodesAtom);
  const holds = useCallback((codes: string[]) => codes.some((c) => menus.has(c) || elements.has(c)), [menus, elements]);
  const built = useMemo(() => (model ? buildForm(screen, model, mode, data, lang, choices, holds) : null), [screen, model, mode, whenKey, lang, choices, holds]);
  // Widgets that fill more than their own field (a checkbox tree's leaves) and read endpoints.
  const submitChecks = useRef(new Set<() => Promise<boolean>>());
  const formContext = useMemo<FormContext>(
    () => ({
      ctx,
      setValues: (patch) => setData((prev) => ({ ...prev, ...patch })),
      beforeSubmit: (check) => {
        submitChecks.current.add(check);
        return () => void submitChecks.current.delete(check);
      },
    }),
    [ctx],
  );

  // Cross-field rules are shown as the user types, on the rule's field; submit() does not send a record that breaks one.
  const liveErrors = useMemo(
    () => (model && built && mode !== 'show' ? serverErrors(crossFieldErrors(model, built.fields, data, lang), built.fields).extra : undefined),
    [model, built, mode, data, lang],
  );
  const shownErrors = useMemo(() => mergeErrorSchemas(extraErrors as Record<string, unknown> | undefined, liveErrors) as ErrorSchema | undefined, [extraErrors, liveErrors]);

  // The preview waits for its fields to be filled and valid by the record schema (the form's own check).
  const previewUnready = useMemo(() => {
    if (!screen.preview || !model || !built || mode === 'show') return null;
    const requires = previewRequires(screen.preview, model.record.required);
    const { errorSchema } = formValidator(lang).validateFormData(data, built.schema);
    const props = (built.schema.properties ?? {}) as Record<string, { title?: string }>;
    return unreadyFields(requires, data, errorSchema as Record<string, unknown>).map((field) => ({ field, title: props[field]?.title ?? field }));
  }, [screen.preview, model, built, mode, data, lang]);

  const setValue = useCallback((field: string, value: unknown) => setData((prev) => ({ ...prev, [field]: value })), []);
  // A preview's adjustments travel with the shown fields (in the preview call and the save).
  const adjustmentsField = screen.preview?.adjustments;
  const previewFields = useMemo(() => (built && adjustmentsField ? [...built.fields, adjustmentsField] : (built?.fields ?? [])), [built, adjustmentsField]);

  const dirty = mode !== 'show' && stableKey(data) !== baseline;
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);
  const guard = useLeaveGuard(dirty);

  // rjsf reports its own changes (defaults filled in on mount, a schema that changed with a
  // condition) without a field id: until the user changes a field, those are the baseline,
  // so an untouched form never claims unsaved changes (docs/screens.md, "Forms behave").
  const onChange = useCallback((next: Data, fieldId?: string) => {
    setData(next);
    if (fieldId !== undefined) touched.current = true;
    else if (!touched.current) setBaseline(stableKey(next));
  }, []);

  if (!model || !built) return <Result status="error" title={t('screens.form.noResource')} />;
  if (loading) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (loadFailure)
    return (
      <Result
        status="warning"
        title={t('screens.form.loadFailed')}
        subTitle={loadFailure}
        extra={<Button onClick={reload}>{t('screens.retry')}</Button>}
      />
    );

  // Show mode reads: descriptions in the form's sections, not a disabled form.
  if (READ_MODES.has(mode))
    return (
      <Flex vertical gap={16}>
        <ReadView sections={readSections(screen, model, data, lang, choices)} lang={lang} />
        <Flex justify="space-between" wrap gap={8}>
          <ActionButtons actions={screen.actions} scope={{ ctx, resource: screen.resource, refresh: reload }} data={loaded ?? data} />
          <Button onClick={() => onDone(false)}>{t('screens.form.back')}</Button>
        </Flex>
      </Flex>
    );

  const submit = async (formData: Data) => {
    // A broken cross-field rule is already shown on its field; the server would refuse it alike.
    if (crossFieldErrors(model, built.fields, formData, lang).length) return;
    const body = submitBody(previewFields, formData, mode, loaded);
    const target: DataSource | null =
      mode === 'add'
        ? screen.endpoints?.create
          ? { endpoint: screen.endpoints.create, ctx, screenResource: screen.resource }
          : doc
            ? { resource: doc.name, operation: 'create' }
            : null
        : screen.endpoints?.update
          ? { endpoint: screen.endpoints.update, ctx, screenResource: screen.resource }
          : doc
            ? { resource: doc.name, operation: 'update', id }
            : null;
    const ep = target && dataProvider.key({ registry: host.registry, source: target }) ? target : null;
    if (!ep) return;
    for (const check of submitChecks.current) if (!(await check())) return;
    setSaving(true);
    setExtraErrors(undefined);
    setOtherErrors([]);
    try {
      const env = await dataProvider.mutate<Data>({ registry: host.registry, source: ep, body });
      notifyResourceChanged(doc?.name);
      for (const name of screen.announces ?? []) if (name !== doc?.name) notifyResourceChanged(name);
      void message.success(t('screens.form.saved'));
      setBaseline(stableKey(formData));
      guard.allowNextLeave();
      const after = screen.afterSubmit ?? 'back';
      if (after === 'stay') {
        if (mode === 'edit') reload();
        else onDone(true);
      } else if (after === 'back') onDone(true);
      else {
        const url = targetUrl(after, { ...ctx, record: env.data ?? formData }, host);
        if (url && onSavedTo) onSavedTo(url);
        else if (url) navigate(url);
        else onDone(true);
      }
    } catch (e) {
      if (isHttpError(e) && e.kind === 'business') {
        const { extra, other } = serverErrors(e.fieldErrors, built.fields);
        setExtraErrors(Object.keys(extra).length ? (extra as ErrorSchema) : undefined);
        setOtherErrors(other.length ? other : e.fieldErrors.length ? [] : [e.serverMessage ?? e.message]);
      } else if (isHttpError(e) && (e.kind === 'timeout' || e.kind === 'network' || e.kind === 'unexpected')) {
        setOtherErrors([t('screens.callFailed')]);
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Flex vertical gap={16} onKeyDownCapture={enterSubmitsOnlyFromText}>
      {otherErrors.length ? <Alert type="error" showIcon title={t('screens.form.refused')} description={otherErrors.join(' ')} role="alert" /> : null}
      <ThemedForm
        schema={built.schema}
        uiSchema={built.uiSchema}
        formData={data}
        validator={formValidator(lang)}
        widgets={formWidgets}
        templates={templates}
        formContext={formContext}
        readonly={mode === 'show'}
        extraErrors={shownErrors}
        showErrorList={false}
        noHtml5Validate
        experimental_defaultFormStateBehavior={DEFAULT_FORM_STATE}
        focusOnFirstError
        onChange={(e, fieldId) => onChange((e.formData ?? {}) as Data, fieldId)}
        onSubmit={(e) => void submit((e.formData ?? {}) as Data)}
        idPrefix={`f-${screen.id}`}
        translateString={(str, params) => (ROW_BUTTONS[str] ? t(ROW_BUTTONS[str]) : englishStringTranslator(str, params))}
      >
        {screen.preview && previewUnready ? (
          <FormPreview preview={screen.preview} fields={previewFields} data={data} ctx={ctx} requires={previewRequires(screen.preview, model.record.required)} unready={previewUnready} setValue={setValue} lang={lang} />
        ) : null}
        {/* Sticky: save and cancel stay in reach at the bottom of a long form, in a drawer or a page. */}
        <Flex justify="space-between" wrap gap={8} className="form-footer" style={{ marginTop: 16, position: 'sticky', bottom: 0, zIndex: 3, padding: '12px 0', background: token.colorBgElevated, borderTop: `1px solid ${token.colorBorderSecondary}` }}>
          <ActionButtons actions={screen.actions} scope={{ ctx, resource: screen.resource, refresh: reload }} data={loaded ?? data} />
          <Space>
            <Button onClick={() => onDone(false)}>{mode === 'show' ? t('screens.form.back') : t('screens.cancel')}</Button>
            {mode !== 'show' ? (
              <Button type="primary" htmlType="submit" loading={saving}>
                {t('screens.form.save')}
              </Button>
            ) : null}
          </Space>
        </Flex>
      </ThemedForm>
    </Flex>
  );
}

export { formTitle } from './form-overlay.ts';

/**
 * The form's data as a comparable key: keys sorted, empty values (undefined, null, '', [],
 * {}) dropped, so that a field typed in and cleared again, or an empty list rjsf added, is
 * no change.
 */
export function stableKey(data: unknown): string {
  return JSON.stringify(compact(data)) ?? '';
}

function compact(value: unknown): unknown {
  if (value === null || value === undefined || value === '') return undefined;
  if (Array.isArray(value)) {
    const items = value.map(compact);
    return items.length ? items : undefined;
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value as Record<string, unknown>).sort()) {
      const v = compact((value as Record<string, unknown>)[key]);
      if (v !== undefined) out[key] = v;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return value;
}

/** Inputs of widgets whose Enter is the widget's own: pick a date, an option, confirm a number. */
const WIDGET_INPUTS = '.ant-picker, .ant-select, .ant-cascader, .ant-tree-select, .ant-input-number, .ant-mentions, .ant-auto-complete, [role="combobox"], [role="spinbutton"]';

/**
 * Enter submits a form only from a plain one-line text input (the browser's convention, kept
 * for short forms). In a date, time, select, cascader or number field it does that field's
 * job (confirms the typed date, picks the option) and never submits: a plan is not created
 * because Enter confirmed its start date (issue 29, docs/screens.md "Forms behave").
 */
export function enterSubmitsOnlyFromText(e: { key: string; target: EventTarget | null; preventDefault(): void }): void {
  if (e.key !== 'Enter') return;
  const target = e.target as HTMLElement | null;
  if (!target || target.tagName !== 'INPUT') return;
  const type = (target as HTMLInputElement).type;
  const textual = ['text', 'search', 'email', 'url', 'tel', 'password'].includes(type);
  // The browser's implicit submission is the default action of the key: cancelling it keeps
  // the widget's own handling (antd's handlers run on the same event and do not check it).
  if (!textual || target.closest(WIDGET_INPUTS)) e.preventDefault();
}
