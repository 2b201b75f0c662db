import { createElement, use, type ComponentType, type ReactElement } from 'react';

export interface LazyView<P> {
  (props: P): ReactElement;
  /** Starts loading the chunk (once); resolves when the component can render without suspending. */
  preload(): Promise<void>;
}

/**
 * A component from a chunk loaded on first use. Unlike React.lazy it suspends only while
 * the chunk is actually in flight: once loaded (or preloaded) every later mount renders
 * at once, so moving between screens of a kind already seen shows no loading flash.
 * Render it inside a Suspense boundary.
 */
export function lazyView<P extends object>(load: () => Promise<ComponentType<P>>): LazyView<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<void> | null = null;
  const preload = () =>
    (pending ??= load().then(
      (c) => void (loaded = c),
      (e: unknown) => {
        // A failed fetch (network blip, a deploy replaced the chunk) is tried again on the next mount.
        pending = null;
        throw e;
      },
    ));
  const View = (props: P): ReactElement => {
    if (!loaded) use(preload());
    return createElement(loaded!, props);
  };
  return Object.assign(View, { preload });
}
