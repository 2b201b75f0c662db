import { createContext, useContext } from 'react';
import type { ConsoleServices } from './services.ts';

export const ServicesContext = createContext<ConsoleServices | null>(null);

export function useServices(): ConsoleServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices() outside <ConsoleApp>');
  return services;
}
