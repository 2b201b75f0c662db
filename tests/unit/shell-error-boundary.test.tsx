// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from '../../runtime/errors/ErrorBoundary.tsx';
import { errorLogAtom } from '../../runtime/errors/error-log.ts';
import { createI18n } from '../../runtime/i18n/i18n.ts';

function Bomb({ armed }: { armed: boolean }) {
  if (armed) throw new RangeError('crop yield out of range');
  return <p>growing</p>;
}

function Harness() {
  const [armed, setArmed] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setArmed(true)}>arm</button>
      <button type="button" onClick={() => setArmed(false)}>disarm</button>
      <ErrorBoundary>
        <Bomb armed={armed} />
      </ErrorBoundary>
    </>
  );
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('error boundary', () => {
  it('records a render error with its component stack and url, shows a localised failure, and retries', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const store = createStore();
    render(
      <Provider store={store}>
        <I18nextProvider i18n={createI18n('en')}>
          <Harness />
        </I18nextProvider>
      </Provider>,
    );
    expect(screen.getByText('growing')).toBeTruthy();
    fireEvent.click(screen.getByText('arm'));
    // The failure page loads with antd, on the first failure (the login page renders without antd).
    expect(await screen.findByText('This page failed', {}, { timeout: 15_000 })).toBeTruthy();
    const [entry] = store.get(errorLogAtom);
    expect(entry.message).toBe('RangeError: crop yield out of range');
    expect(entry.info).toContain('Bomb');
    expect(entry.url).toBe(window.location.href);
    expect(entry.stack).toContain('crop yield out of range');

    fireEvent.click(screen.getByText('disarm'));
    fireEvent.click(screen.getByText('Try again'));
    expect(screen.getByText('growing')).toBeTruthy();
    expect(store.get(errorLogAtom)).toHaveLength(1);
  });
});
