import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConsoleApp } from './app/ConsoleApp.tsx';
import { loadScreens, prefetchOnIntent } from './app/console-loading.ts';
import { applyDocumentLanguage, createConsoleServices } from './app/services.ts';

const services = createConsoleServices();
applyDocumentLanguage(services.i18n);

// The screens load when a page needs them (any gated page, or the page after sign-in):
// `/login` loads the login form and nothing of the console (console-loading.ts).
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ConsoleApp services={services} screens={loadScreens} />
  </StrictMode>,
);

// Once the visitor starts using the login form, antd's frame, the shell, the screens and the
// table renderer are fetched at the next idle moment, unless the connection is slow.
prefetchOnIntent();
