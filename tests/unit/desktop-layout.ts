/**
 * jsdom lays nothing out: gives every element the size of a desktop view (1200 × 600) and a
 * ResizeObserver that observes nothing, so that virtualised rows (the planting timeline's)
 * are shown.
 */
export function giveElementsDesktopSize(): void {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 600 });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 1200 });
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}
