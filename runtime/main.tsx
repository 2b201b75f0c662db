import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConsoleApp } from './app/ConsoleApp.tsx';
import { applyDocumentLanguage, createConsoleServices } from './app/services.ts';

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
