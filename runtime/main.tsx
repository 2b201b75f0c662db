import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConsoleApp } from './app/ConsoleApp.tsx';
import { applyDocumentLanguage, createConsoleServices } from './app/services.ts';
import { preloadAntd } from './shell/frame/lazy-antd.tsx';
import { preloadShell } from './shell/lazy-shell.tsx';

const services = createConsoleServices();
applyDocumentLanguage(services.i18n);

// The screens load beside the first render: the login page shows at once, and routes that
// need a screen wait for them (ConsoleApp).
const screens = import('./app/bundled-screens.ts').then((m) => m.bundledScreens());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ConsoleApp services={services} screens={screens} />
  </StrictMode>,
);

// Once the first page is up, fetch what the next one most likely needs (antd and its
// providers, the shell and the table renderer) while the user types; not before, so it does not compete with the login
// form for the network and the main thread.
const whenIdle = (f: () => void) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(f, { timeout: 2000 }) : setTimeout(f, 200));
whenIdle(() => {
  preloadAntd();
  preloadShell();
  void screens
    .then(() => import('./screens/ScreenView.tsx'))
    .then((m) => m.preloadTableView())
    .catch(() => undefined);
});
