import { createContext, useContext } from 'react';
import type { ConsoleServices } from './contract.ts';

/** Provided by the app (runtime/app/ConsoleApp.tsx); read by the screens and the shell. */
export const ServicesContext = createContext<ConsoleServices | null>(null);

export function useServices(): ConsoleServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices() outside <ConsoleApp>');
  return services;
}
