import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConsoleApp } from './app/ConsoleApp.tsx';
import { createConsoleServices } from './app/services.ts';

const services = createConsoleServices();
document.documentElement.lang = services.i18n.language === 'zh' ? 'zh-CN' : services.i18n.language;

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ConsoleApp services={services} />
  </StrictMode>,
);
