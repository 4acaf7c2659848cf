/**
 * Native HTML5 drag and drop for the dispatch board: cards (`[data-job]`) onto drop targets
 * (`[data-drop]`). Listeners are delegated on #app once, so every redraw of the board keeps working.
 */
const closest = (e: Event, sel: string) => (e.target instanceof Element ? e.target.closest<HTMLElement>(sel) : null);

export function enableDragDrop(app: HTMLElement, onDrop: (jobId: string, target: string) => Promise<void>): void {
  let dragged = '';
  const highlight = (zone: HTMLElement | null) =>
    app.querySelectorAll<HTMLElement>('[data-drop]').forEach((z) => z.classList.toggle('over', z === zone));
  app.addEventListener('dragstart', (e) => {
    const card = closest(e, '[data-job]');
    if (!card || !e.dataTransfer) return;
    dragged = card.dataset.job!;
    e.dataTransfer.setData('text/plain', dragged);
    e.dataTransfer.effectAllowed = 'move';
    card.classList.add('dragging');
    // Calendar blocks lie over the slots: while one is dragged the others let the slots take the drop.
    requestAnimationFrame(() => app.classList.add('is-dragging'));
  });
  app.addEventListener('dragover', (e) => {
    const zone = closest(e, '[data-drop]');
    if (!zone || !dragged) return;
    e.preventDefault(); // a drop is only allowed where dragover was cancelled
    if (e.dataTransfer) e.dataTransfer.dropEffect = 'move';
    highlight(zone);
  });
  app.addEventListener('drop', (e) => {
    const zone = closest(e, '[data-drop]');
    if (!zone) return;
    e.preventDefault();
    const id = e.dataTransfer?.getData('text/plain') || dragged;
    dragged = '';
    highlight(null);
    app.classList.remove('is-dragging');
    if (id) void onDrop(id, zone.dataset.drop!);
  });
  app.addEventListener('dragend', () => {
    dragged = '';
    highlight(null);
    app.classList.remove('is-dragging');
    app.querySelectorAll('.dragging').forEach((c) => c.classList.remove('dragging'));
  });
}
