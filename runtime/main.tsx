import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConsoleApp } from './app/ConsoleApp.tsx';
import { applyDocumentLanguage, createConsoleServices } from './app/services.ts';

const services = createConsoleServices();
applyDocumentLanguage(services.i18n);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ConsoleApp services={services} />
  </StrictMode>,
);
