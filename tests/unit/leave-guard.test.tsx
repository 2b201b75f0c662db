// @vitest-environment jsdom
/**
 * The leave guard (runtime/screens/leave-guard.ts) with several dirty forms that come and go
 * in any order, as a form kept alive in a hidden tab and a form in a dialog do: while one is
 * dirty a navigation asks; once none is, links work again, whatever order they left in.
 */
import { act, cleanup, render } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { useState } from 'react';
import { MemoryRouter, useLocation, useNavigate } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { useLeaveGuard } from '../../runtime/screens/leave-guard.ts';
import { stubBrowserApis } from './screens-harness.tsx';

stubBrowserApis();
afterEach(() => cleanup());

function DirtyForm() {
  useLeaveGuard(true);
  return null;
}

let go: (to: string) => void = () => {};
let show: (forms: string[]) => void = () => {};

function Console() {
  const [forms, setForms] = useState<string[]>([]);
  const navigate = useNavigate();
  const location = useLocation();
  go = (to) => void navigate(to);
  show = setForms;
  return (
    <>
      <p data-testid="path">{location.pathname}</p>
      {forms.map((f) => (
        <DirtyForm key={f} />
      ))}
    </>
  );
}

function mount() {
  return render(
    <AntApp>
      <MemoryRouter initialEntries={['/start']}>
        <Console />
      </MemoryRouter>
    </AntApp>,
  );
}

const confirmOpen = () => document.querySelectorAll('.ant-modal-confirm').length > 0;

describe('the leave guard', () => {
  it('asks while a form is dirty, and lets links work once none is, whichever left first', async () => {
    const view = mount();
    const path = () => view.getByTestId('path').textContent;
    act(() => show(['a', 'b']));
    act(() => go('/elsewhere'));
    expect(path()).toBe('/start');
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(confirmOpen()).toBe(true);

    // The first form leaves before the second (the order a per-form wrap got wrong).
    act(() => show(['b']));
    act(() => show([]));
    act(() => go('/next'));
    expect(path()).toBe('/next');
  });
});
