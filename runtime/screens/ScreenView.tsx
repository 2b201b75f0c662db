/**
 * The generic renderer's entry: a screen document of any kind, shown at a route (or
 * embedded in a page, or opened in a drawer), with the overlay host that `openForm`
 * actions open their forms in.
 */
import { App as AntApp, Col, Drawer, Flex, Modal, Row, Skeleton, Tabs, Typography } from 'antd';
import { useAtomValue, useSetAtom } from 'jotai';
import { elementCodesAtom, menuCodesAtom } from '../session/atoms.ts';
import { Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import type { BrokenScreen, SchemaRegistry } from '../schema/registry.ts';
import { formModeOf, idParamOf, type FormScreen, type PageScreen, type Screen, type TableScreen } from '../schema/screen.ts';
import { textOf, type Lang } from '../schema/texts.ts';
import { tabKey } from '../shell/tabs/tab-list.ts';
import { useForgetTab } from '../shell/tabs/tabs-state.ts';
import { resolveParams } from '../schema/values.ts';
import { ErrorPanel, ScreenProblem } from './ErrorPanel.tsx';
import { FormOverlayContext, formTitle, type FormRequest } from './form-overlay.ts';
import { ScreenHostContext, useLang, useScreenHost, type ScreenHost } from './host.ts';
import { screenRenderer, type Feature } from './features.ts';
import { lazyView } from './lazy-view.ts';
import { LazyStepsView as StepsView } from './steps-view.ts';
import { RoutedScreenIdContext } from './routed-screen.ts';
import { RecordReportContext } from './record-report.ts';
import { composeTitle, recordNames, recordTemplate, recordTitlesAtom, titleMode } from './screen-title.ts';

// Each kind's renderer is its own chunk, fetched the first time a screen of that kind is
// shown: the login page and the shell never load rjsf, ajv, echarts or the grid.
const TableView = lazyView(() => import('./TableView.tsx').then((m) => m.TableView));
const FormView = lazyView(() => import('./FormView.tsx').then((m) => m.FormView));
const DetailView = lazyView(() => import('./DetailView.tsx').then((m) => m.DetailView));
const DashboardView = lazyView(() => import('./DashboardView.tsx').then((m) => m.DashboardView));
const WidgetHost = lazyView(() => import('./WidgetHost.tsx').then((m) => m.WidgetHost));

/** Every renderer chunk, loaded ahead (tests that render synchronously; warming after login). */
/** The table renderer, the kind most screens are: fetched ahead while the login page is up (main.tsx). */
export function preloadTableView(): Promise<void> {
  return TableView.preload();
}

export function preloadScreenViews(): Promise<unknown> {
  return Promise.all([TableView, FormView, DetailView, DashboardView, WidgetHost].map((v) => v.preload()));
}

/** Shown while a renderer's chunk loads; busy, so tests and assistive technology wait for it. */
function ViewLoading() {
  return (
    <div aria-busy="true">
      <Skeleton active />
    </div>
  );
}

/** The body of one screen in the current host. */
export function ScreenBody({ screen }: { screen: Screen }) {
  return (
    <Suspense fallback={<ViewLoading />}>
      <ScreenKind screen={screen} />
    </Suspense>
  );
}

function ScreenKind({ screen }: { screen: Screen }) {
  const { t } = useTranslation();
  const Renderer = screenRenderer(screen.kind);
  if (!Renderer) return <ScreenProblem title={t('screens.unknownKind', { kind: screen.kind })} />;
  return <Renderer screen={screen as never} />;
}

function TableScreenView({ screen }: { screen: TableScreen }) {
  const host = useScreenHost();
  const ctx = useMemo(() => ({ route: host.params, query: host.query }), [host.params, host.query]);
  return <TableView id={screen.id} parts={screen} resource={screen.resource} endpoint={screen.endpoint} title={screen.title} ctx={ctx} />;
}

function FormScreenView({ screen }: { screen: FormScreen }) {
  const host = useScreenHost();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const forgetTab = useForgetTab();
  const ctx = useMemo(() => ({ route: host.params, query: host.query }), [host.params, host.query]);
  // An alias may name the id parameter its own way (editGoods/:operate/:goodsId/…): the form then reads it under that name.
  const idParam = idParamOf(screen, host.routePattern);
  const shown = useMemo(() => (idParam === (screen.idParam ?? 'id') ? screen : { ...screen, idParam }), [screen, idParam]);
  const mode = formModeOf(screen, host.params, host.routePattern);
  if (!mode) return <ScreenProblem title={t('screens.form.badMode', { mode: host.params[screen.modeParam ?? 'operate'] ?? '' })} />;
  const initial = mode === 'add' && screen.initial ? resolveParams(screen.initial, ctx) : undefined;
  // A saved form's tab closes: back where the user came from, or to the page the save leads
  // to, which takes the form's place in history (its «返回» then leads back to the list).
  const formTab = tabKey(location);
  const onDone = (saved: boolean) => {
    goBack(navigate, host.routePattern);
    if (saved) forgetTab(formTab);
  };
  const onSavedTo = (url: string) => {
    navigate(url, { replace: true });
    forgetTab(formTab);
  };
  return <FormView screen={shown} mode={mode} id={host.params[idParam]} initial={initial} onDone={onDone} onSavedTo={onSavedTo} />;
}

/** The renderers of the six screen kinds, registered by the app (runtime/app/default-features.ts). */
export const DEFAULT_SCREENS: Feature['screens'] = {
  table: TableScreenView,
  form: FormScreenView,
  detail: DetailView,
  page: PageView,
  dashboard: DashboardView,
  widget: WidgetHost,
};

/** History back when the console has somewhere to go back to, else the section's root. */
function goBack(navigate: ReturnType<typeof useNavigate>, pattern: string | undefined): void {
  const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
  if (idx > 0) navigate(-1);
  else navigate(`/${pattern?.split('/').filter(Boolean)[0] ?? ''}`);
}

function PageView({ screen }: { screen: PageScreen }) {
  const host = useScreenHost();
  const lang = useLang();
  const { t } = useTranslation();
  const menus = useAtomValue(menuCodesAtom);
  const elements = useAtomValue(elementCodesAtom);
  const held = (codes: string[] | undefined) => !codes || codes.some((c) => menus.has(c) || elements.has(c));
  const children = screen.children.filter((c) => held(c.requires)).map((c) => {
    const child = host.registry.screen(c.screen);
    const params: Record<string, string | undefined> = { ...host.params };
    for (const [k, v] of Object.entries(resolveParams(c.params, { route: host.params, query: host.query }))) params[k] = v === undefined || v === null ? undefined : String(v);
    const title = c.title ?? child?.title;
    const body = child ? (
      // biome-ignore lint/correctness/useJsxKeyInIterable: an item's body; its key is the item's `key`
      <ScreenHostContext.Provider value={{ ...host, params }}>
        <ScreenBody screen={child} />
      </ScreenHostContext.Provider>
    ) : (
      // biome-ignore lint/correctness/useJsxKeyInIterable: an item's body; its key is the item's `key`
      <ScreenProblem title={t('screens.page.missingChild', { id: c.screen })} />
    );
    return { key: c.screen, title: title ? textOf(title, lang) : c.screen, span: c.span ?? 24, body };
  });
  if (screen.layout === 'tabs') return <Tabs items={children.map((c) => ({ key: c.key, label: c.title, children: c.body }))} />;
  if (screen.layout === 'steps') return <StepsView screenId={screen.id} items={children} />;
  return (
    <Row gutter={[16, 16]}>
      {children.map((c) => (
        <Col key={c.key} xs={24} lg={c.span}>
          <Typography.Title level={5}>{c.title}</Typography.Title>
          {c.body}
        </Col>
      ))}
    </Row>
  );
}

/** `next`, or `prev` when it names the record alike (no re-render for an equal name). */
function sameNames(prev: Partial<Record<Lang, string>>, next: Partial<Record<Lang, string>>): Partial<Record<Lang, string>> {
  return JSON.stringify(prev) === JSON.stringify(next) ? prev : next;
}

/** Hosts the forms that `openForm` actions open, in a drawer or a modal, and asks before closing a dirty one. */
export function FormOverlayHost({ children }: { children: ReactNode }) {
  const host = useScreenHost();
  const lang = useLang();
  const { t } = useTranslation();
  const { modal } = AntApp.useApp();
  const [request, setRequest] = useState<FormRequest | null>(null);
  const [open, setOpen] = useState(false);
  const dirty = useRef(false);
  const onDirtyChange = useCallback((d: boolean) => void (dirty.current = d), []);
  const openForm = useCallback((req: FormRequest) => {
    dirty.current = false;
    setNames({});
    setRequest(req);
    setOpen(true);
  }, []);

  const close = (saved: boolean) => {
    if (saved) request?.onSaved?.();
    setOpen(false);
  };
  const askClose = async () => {
    if (dirty.current) {
      const ok = await modal.confirm({ title: t('screens.form.leaveTitle'), content: t('screens.form.leaveText'), okText: t('screens.form.leave'), cancelText: t('screens.form.stay') });
      if (!ok) return;
    }
    close(false);
  };

  const screen = request ? host.registry.screen(request.screen) : undefined;
  const form = screen?.kind === 'form' ? (screen as FormScreen) : undefined;
  const [names, setNames] = useState<Partial<Record<Lang, string>>>({});
  const template = useMemo(() => (form ? recordTemplate(form, form.resource ? host.registry.resource(form.resource) : undefined) : null), [form, host.registry]);
  const report = useCallback((record: unknown) => setNames((prev) => sameNames(prev, recordNames(template, record))), [template]);
  const title = form && request ? formTitle(form, request.mode, lang, t, names[lang] ?? request.subject) : '';
  // One host object per request: the form reloads its record whenever its host's params change identity.
  const formHost = useMemo<ScreenHost>(() => ({ ...host, params: { ...host.params, ...request?.params } }), [host, request]);
  const body =
    form && request ? (
      <ScreenHostContext.Provider value={formHost}>
        <RecordReportContext.Provider value={report}>
        <Suspense fallback={<ViewLoading />}>
          <FormView
            key={`${request.screen}:${request.mode}:${JSON.stringify(request.params)}`}
            screen={form}
            mode={request.mode}
            id={request.params[form.idParam ?? 'id']}
            initial={request.initial}
            onDone={close}
            onDirtyChange={onDirtyChange}
          />
        </Suspense>
        </RecordReportContext.Provider>
      </ScreenHostContext.Provider>
    ) : null;

  return (
    <FormOverlayContext.Provider value={openForm}>
      {children}
      {request?.container === 'modal' ? (
        <Modal open={open} title={title} width={request.width ?? 720} footer={null} onCancel={() => void askClose()} destroyOnHidden afterClose={() => setRequest(null)}>
          {body}
        </Modal>
      ) : (
        <Drawer
          open={open}
          title={title}
          size={request?.width ?? 720}
          onClose={() => void askClose()}
          destroyOnHidden
          afterOpenChange={(o) => !o && setRequest(null)}
        >
          {body}
        </Drawer>
      )}
    </FormOverlayContext.Provider>
  );
}

/**
 * A whole screen with its title, inside its host and its overlay host. The heading names
 * the record the screen's form or detail reports; at a route (`tabKey`), the tab, the
 * breadcrumb and the browser title read the same (recordTitlesAtom).
 */
export function ScreenFrame({ screen, host, tabKey }: { screen: Screen; host: ScreenHost; tabKey?: string }) {
  const lang = useLang();
  const { t } = useTranslation();
  const [names, setNames] = useState<Partial<Record<Lang, string>>>({});
  const mode = titleMode(screen, host.params, host.routePattern);
  const template = useMemo(() => recordTemplate(screen, screen.resource ? host.registry.resource(screen.resource) : undefined), [screen, host.registry]);
  const report = useCallback((record: unknown) => setNames((prev) => sameNames(prev, recordNames(template, record))), [template]);
  const setTitles = useSetAtom(recordTitlesAtom);
  useEffect(() => {
    if (!tabKey) return;
    // Re-inserted last: the store keeps the most recent names.
    setTitles((prev) => ({ ...Object.fromEntries(Object.entries(prev).filter(([k]) => k !== tabKey)), [tabKey]: { mode, names } }));
  }, [tabKey, mode, names, setTitles]);
  return (
    <ScreenHostContext.Provider value={host}>
      <RecordReportContext.Provider value={report}>
        <FormOverlayHost>
          <Flex vertical gap={16} data-screen={screen.id}>
            <Typography.Title level={4} style={{ margin: 0 }} data-testid="screen-heading">
              {composeTitle(textOf(screen.title, lang), mode, names[lang], t)}
            </Typography.Title>
            <ScreenBody screen={screen} />
          </Flex>
        </FormOverlayHost>
      </RecordReportContext.Provider>
    </ScreenHostContext.Provider>
  );
}

export interface RoutedScreenProps {
  registry: SchemaRegistry;
  screenId: string;
  /** The route pattern this element is mounted at (a screen with aliases has several). */
  pattern: string;
  authority: string;
}

/** A screen at one of its routes: the route's parameters and search parameters become its host. */
export function RoutedScreen({ registry, screenId, pattern, authority }: RoutedScreenProps) {
  const params = useParams();
  const location = useLocation();
  const { t } = useTranslation();
  const paramsKey = JSON.stringify(params);
  const host = useMemo<ScreenHost>(
    () => ({
      registry,
      routePattern: pattern,
      authority,
      params: JSON.parse(paramsKey) as Record<string, string | undefined>,
      query: Object.fromEntries(new URLSearchParams(location.search)),
    }),
    [registry, pattern, authority, paramsKey, location.search],
  );
  const screen = registry.screen(screenId);
  if (!screen) return <ScreenProblem title={t('screens.page.missingChild', { id: screenId })} />;
  return (
    <RoutedScreenIdContext.Provider value={screen.id}>
      <ScreenFrame screen={screen} host={host} tabKey={tabKey(location)} />
    </RoutedScreenIdContext.Provider>
  );
}

/** An invalid document at its route. */
export function BrokenScreenView({ broken }: { broken: BrokenScreen }) {
  return <ErrorPanel broken={broken} />;
}
