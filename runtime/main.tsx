import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConsoleApp } from './app/ConsoleApp.tsx';
import { schemaScreenRoutes } from './app/schema-screens.ts';
import { applyDocumentLanguage, createConsoleServices } from './app/services.ts';
import { bundledSource } from './schema/bundled.ts';
import { formatProblems, loadRegistry } from './schema/registry.ts';

const services = createConsoleServices();
applyDocumentLanguage(services.i18n);

// The bundled documents are validated here as on the server: an invalid one becomes its
// error panel at its routes, and the console starts with every other screen.
const registry = await loadRegistry([bundledSource]);
if (registry.errors.length) console.error(`[schemas] ${registry.errors.length} problem(s)\n${formatProblems(registry.errors)}`);
const screens = schemaScreenRoutes(registry);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ConsoleApp services={services} screens={screens} />
  </StrictMode>,
);
