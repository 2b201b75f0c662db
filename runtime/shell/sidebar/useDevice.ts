import { useSyncExternalStore } from 'react';
import { deviceForWidth, type Device } from './device.ts';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

/** desktop or mobile, following the window's width as it is resized. */
export function useDevice(): Device {
  return useSyncExternalStore(subscribe, () => deviceForWidth(window.innerWidth), () => 'desktop');
}
