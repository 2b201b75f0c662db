/** Spec sections 4 and 9: a width under 1024 px is mobile. */
export const MOBILE_MAX_WIDTH = 1024;

export type Device = 'desktop' | 'mobile';

export function deviceForWidth(width: number): Device {
  return width < MOBILE_MAX_WIDTH ? 'mobile' : 'desktop';
}
