// The page frame: header on top; outline (left), timeline (center) and annotation + audits
// (right) below. Side panels are resizable (drag or arrow keys on the separators) and
// collapsible; sizes are part of the persisted UI state.
import { el } from '../common/dom';

export interface PanelSizes {
  leftWidth: number;
  rightWidth: number;
  leftCollapsed: boolean;
  rightCollapsed: boolean;
}

const MIN_SIDE = 160;
const MIN_CENTER = 340;

export class Layout {
  readonly root: HTMLElement;
  readonly headerSlot: HTMLElement;
  readonly left: HTMLElement;
  readonly center: HTMLElement;
  readonly right: HTMLElement;
  private readonly main: HTMLElement;
  private readonly leftHandle: HTMLElement;
  private readonly rightHandle: HTMLElement;
  sizes: PanelSizes;
  onChange: () => void = () => {};

  constructor(initial?: Partial<PanelSizes>) {
    const w = window.innerWidth;
    const narrow = w < 860;
    this.sizes = {
      leftWidth: initial?.leftWidth ?? Math.round(Math.max(180, Math.min(260, w * 0.2))),
      rightWidth: initial?.rightWidth ?? Math.round(Math.max(270, Math.min(380, w * 0.28))),
      leftCollapsed: initial?.leftCollapsed ?? narrow,
      rightCollapsed: initial?.rightCollapsed ?? false,
    };
    this.root = el('div', { className: 'app' });
    this.headerSlot = el('div', { className: 'app-header-slot' });
    this.main = el('div', { className: 'app-main' });
    this.left = el('nav', { className: 'panel panel-left', attrs: { 'aria-label': 'Outline and records' } });
    this.center = el('main', { className: 'panel panel-center', attrs: { 'aria-label': 'Timeline' } });
    this.right = el('aside', { className: 'panel panel-right', attrs: { 'aria-label': 'Annotation and audits' } });
    this.leftHandle = this.handle('left');
    this.rightHandle = this.handle('right');
    this.main.append(this.left, this.leftHandle, this.center, this.rightHandle, this.right);
    this.root.append(this.headerSlot, this.main);
    window.addEventListener('resize', () => this.apply());
    this.apply();
  }

  toggle(side: 'left' | 'right', collapsed?: boolean): void {
    if (side === 'left') this.sizes.leftCollapsed = collapsed ?? !this.sizes.leftCollapsed;
    else this.sizes.rightCollapsed = collapsed ?? !this.sizes.rightCollapsed;
    this.apply();
    this.onChange();
  }

  apply(): void {
    const total = this.main.clientWidth || window.innerWidth;
    const s = this.sizes;
    const maxSide = Math.max(MIN_SIDE, total - MIN_CENTER - (s.leftCollapsed || s.rightCollapsed ? 0 : MIN_SIDE));
    s.leftWidth = Math.max(MIN_SIDE, Math.min(s.leftWidth, maxSide));
    s.rightWidth = Math.max(MIN_SIDE + 60, Math.min(s.rightWidth, maxSide));
    this.main.style.setProperty('--left-w', s.leftCollapsed ? '0px' : `${s.leftWidth}px`);
    this.main.style.setProperty('--right-w', s.rightCollapsed ? '0px' : `${s.rightWidth}px`);
    this.left.hidden = s.leftCollapsed;
    this.right.hidden = s.rightCollapsed;
    this.leftHandle.hidden = s.leftCollapsed;
    this.rightHandle.hidden = s.rightCollapsed;
    this.leftHandle.setAttribute('aria-valuenow', String(Math.round(s.leftWidth)));
    this.rightHandle.setAttribute('aria-valuenow', String(Math.round(s.rightWidth)));
  }

  private handle(side: 'left' | 'right'): HTMLElement {
    const h = el('div', {
      className: `resizer resizer-${side}`,
      attrs: {
        role: 'separator',
        tabindex: 0,
        'aria-orientation': 'vertical',
        'aria-label': side === 'left' ? 'Resize the outline panel' : 'Resize the annotation panel',
        'aria-valuemin': MIN_SIDE,
        'aria-valuemax': 900,
      },
    });
    let startX = 0;
    let startW = 0;
    const move = (ev: PointerEvent) => {
      const dx = ev.clientX - startX;
      if (side === 'left') this.sizes.leftWidth = startW + dx;
      else this.sizes.rightWidth = startW - dx;
      this.apply();
    };
    h.addEventListener('pointerdown', (ev) => {
      startX = ev.clientX;
      startW = side === 'left' ? this.sizes.leftWidth : this.sizes.rightWidth;
      h.setPointerCapture(ev.pointerId);
      h.classList.add('is-dragging');
      h.addEventListener('pointermove', move);
    });
    const end = (ev: PointerEvent) => {
      if (!h.hasPointerCapture(ev.pointerId)) return;
      h.releasePointerCapture(ev.pointerId);
      h.classList.remove('is-dragging');
      h.removeEventListener('pointermove', move);
      this.onChange();
    };
    h.addEventListener('pointerup', end);
    h.addEventListener('pointercancel', end);
    h.addEventListener('dblclick', () => this.toggle(side, true));
    h.addEventListener('keydown', (ev) => {
      const step = ev.shiftKey ? 60 : 20;
      let delta = 0;
      if (ev.key === 'ArrowLeft') delta = -step;
      else if (ev.key === 'ArrowRight') delta = step;
      else return;
      ev.preventDefault();
      ev.stopPropagation();
      if (side === 'left') this.sizes.leftWidth += delta;
      else this.sizes.rightWidth -= delta;
      this.apply();
      this.onChange();
    });
    return h;
  }
}
