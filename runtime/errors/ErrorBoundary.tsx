import { useStore } from 'jotai';
import { Component, lazy, Suspense, type ErrorInfo, type ReactNode } from 'react';
import { recordError } from './error-log.ts';

// With antd, loaded when a page fails: the login page, which stands in this boundary too, renders without antd.
const ErrorFallback = lazy(() => import('./ErrorFallback.tsx'));

interface BoundaryProps {
  children: ReactNode;
  /** When it changes (another page), a caught error is forgotten and the children render again. */
  resetKey?: unknown;
  onCatch(error: unknown, info: ErrorInfo): void;
  fallback(retry: () => void): ReactNode;
}

interface BoundaryState {
  failed: boolean;
  resetKey: unknown;
}

class Boundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<BoundaryState> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.resetKey !== state.resetKey ? { failed: false, resetKey: props.resetKey } : null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.props.onCatch(error, info);
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback(() => this.setState({ failed: false })) : this.props.children;
  }
}

/**
 * Catches a render error below it, records it in the error log (message, component
 * stack, url, stack) and shows a localised failure with a retry, so one broken screen
 * never takes the shell down.
 */
export function ErrorBoundary({ children, resetKey }: { children: ReactNode; resetKey?: unknown }) {
  const store = useStore();
  return (
    <Boundary
      resetKey={resetKey}
      onCatch={(error, info) => recordError(store, error, info.componentStack?.trim() ?? '')}
      fallback={(retry) => (
        <Suspense fallback={null}>
          <ErrorFallback retry={retry} />
        </Suspense>
      )}
    >
      {children}
    </Boundary>
  );
}
