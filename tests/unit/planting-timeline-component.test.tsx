// @vitest-environment jsdom
/**
 * The timeline component in jsdom: a keyboard reschedule is sent with the new dates; a save
 * the owner rejects puts the bar back at its dates with the server's sentence beside it; a
 * read-only timeline offers no change.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { giveElementsDesktopSize } from './desktop-layout.ts';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PlantingTimeline, type TimelineTask } from '../../widgets/planting-timeline/PlantingTimeline.tsx';

afterEach(() => cleanup());
beforeAll(() => {
  giveElementsDesktopSize();
});

const tasks: TimelineTask[] = [
  { id: 1, name: 'Irrigation', startOn: '2026-04-01', endOn: '2026-04-03', status: 'published' },
  { id: 2, name: 'Weeding', startOn: '2026-04-10', endOn: '2026-04-10', status: 'done' },
];
const base = {
  stages: [{ id: 10, name: 'Seedling', startOn: '2026-03-01', endOn: '2026-04-15' }],
  keyNodes: [{ id: 11, name: 'Transplant', on: '2026-04-16' }],
  tasks,
  season: { start: '2026-03-01', end: '2026-06-30' },
  language: 'en' as const,
  today: '2026-04-05',
};

function deferred() {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('PlantingTimeline', () => {
  it('arrows move a bar by a day, shift+arrow lengthens it, Enter sends the new dates', async () => {
    const calls: [unknown, string, string][] = [];
    const pending = deferred();
    render(
      <PlantingTimeline
        {...base}
        onReschedule={(id, s, e) => {
          calls.push([id, s, e]);
          return pending.promise;
        }}
      />,
    );
    const bar = screen.getByRole('button', { name: /^Irrigation, Apr 1, 2026 to Apr 3, 2026, 3 days, Published$/ });
    fireEvent.keyDown(bar, { key: 'ArrowRight' });
    fireEvent.keyDown(bar, { key: 'ArrowRight' });
    fireEvent.keyDown(bar, { key: 'ArrowRight', shiftKey: true });
    expect(bar.getAttribute('aria-label')).toBe('Irrigation, Apr 3, 2026 to Apr 6, 2026, 4 days, Published');
    expect(screen.getByRole('status').textContent).toMatch(/not saved/);
    fireEvent.keyDown(bar, { key: 'Enter' });
    expect(calls).toEqual([[1, '2026-04-03', '2026-04-06']]);
    expect(bar.getAttribute('aria-busy')).toBe('true');
    await act(async () => pending.resolve());
    expect(screen.getByRole('status').textContent).toBe('Irrigation moved to Apr 3, 2026 – Apr 6, 2026');
  });

  it('a refused save snaps the bar back and shows the server sentence at the bar', async () => {
    const pending = deferred();
    render(<PlantingTimeline {...base} onReschedule={() => pending.promise} />);
    const bar = screen.getByRole('button', { name: /^Weeding,/ });
    fireEvent.keyDown(bar, { key: 'ArrowLeft' });
    fireEvent.keyDown(bar, { key: 'Enter' });
    expect(bar.getAttribute('aria-label')).toMatch(/Apr 9, 2026 to Apr 9, 2026/);
    await act(async () => pending.reject(new Error('Dates must fall inside the season')));
    expect(bar.getAttribute('aria-label')).toBe('Weeding, Apr 10, 2026 to Apr 10, 2026, 1 day, Done');
    expect(screen.getByRole('alert').textContent).toContain('Not saved: Dates must fall inside the season');
    fireEvent.keyDown(bar, { key: 'Escape' });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('Escape puts a nudged bar back without saving; read-only bars do not move', () => {
    const calls: unknown[] = [];
    const { unmount } = render(<PlantingTimeline {...base} onReschedule={async (...a) => void calls.push(a)} />);
    const bar = screen.getByRole('button', { name: /^Irrigation,/ });
    fireEvent.keyDown(bar, { key: 'ArrowRight' });
    fireEvent.keyDown(bar, { key: 'Escape' });
    expect(bar.getAttribute('aria-label')).toMatch(/Apr 1, 2026 to Apr 3, 2026/);
    expect(calls).toEqual([]);
    unmount();
    render(<PlantingTimeline {...base} language="zh" />);
    const still = screen.getByRole('button', { name: /^Irrigation，2026-04-01 至 2026-04-03，共 3 天，已发布$/ });
    expect(still.getAttribute('aria-disabled')).toBe('true');
    fireEvent.keyDown(still, { key: 'ArrowRight' });
    expect(still.getAttribute('aria-label')).toMatch(/2026-04-01 至 2026-04-03/);
  });

  it('shows a legend of every status in the viewer’s language and the zoom switch', () => {
    render(<PlantingTimeline {...base} language="es" />);
    for (const s of ['Sin publicar', 'Publicada', 'En curso', 'Hecha', 'Atrasada']) expect(screen.getByText(s)).toBeTruthy();
    const month = screen.getByRole('button', { name: 'Mes' });
    fireEvent.click(month);
    expect(month.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getAllByText('Hito Transplant, 16 abr 2026').length).toBeGreaterThan(0);
  });
});
